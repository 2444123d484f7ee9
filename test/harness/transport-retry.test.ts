// A transport fault is the network's until it repeats: the same request failing every time, try after try, is a finding.
import { describe, expect, it } from 'vitest';
import { faultedTry, networkReason, repeatedFinding } from '../../harness/conformance/transport-retry.ts';
import type { Exchange } from '../../harness/http/exchange.ts';

const PREFIX = 'cft-abc123';
const ok = (method: string, path: string): Exchange => ({ method, url: `http://t${path}`, requestHeaders: {}, durationMs: 1, authenticated: true, status: 201 });
const reset = (method: string, path: string): Exchange => ({ ...ok(method, path), status: undefined, errorKind: 'reset', error: 'connection reset by the target before the response was complete' });

describe('transport faults across tries', () => {
  it('the same request reset every time it is sent, on every try, is a finding naming the request', () => {
    const tries = [1, 2, 3].map((n) => faultedTry([ok('POST', `/v2/workflows`), reset('DELETE', `/v2/topics/${PREFIX}-t-${n}`)], PREFIX));
    expect(repeatedFinding(tries)).toBe(
      'the target resets the connection on DELETE /v2/topics/{id} every time it is sent (3 tries, each from the start with fresh data): a transport fault that repeats on one request is a finding, not the network',
    );
  });

  it('faults at different requests, or at a request that also got through in the same try, are the network', () => {
    const moving = [faultedTry([reset('POST', '/v2/workflows')], PREFIX), faultedTry([ok('POST', '/v2/workflows'), reset('GET', '/v1/environments')], PREFIX)];
    expect(repeatedFinding(moving)).toBeUndefined();
    expect(networkReason(moving)).toMatch(/^the network: a transport fault on each of 2 tries, at different requests \(try 1: POST \/v2\/workflows: connection reset.*; try 2: GET \/v1\/environments: connection reset/);
    // a drain of 200 triggers losing one to the network each try: triggers got through, so not the target's doing
    const drains = [1, 2, 3].map(() => faultedTry([ok('POST', '/v1/events/trigger'), ok('POST', '/v1/events/trigger'), reset('POST', '/v1/events/trigger')], PREFIX));
    expect(repeatedFinding(drains)).toBeUndefined();
  });

  it('a single try (no retries configured) is never a finding: nothing repeated', () => {
    expect(repeatedFinding([faultedTry([reset('POST', '/v1/events/trigger')], PREFIX)])).toBeUndefined();
  });

  it('normalizes run-prefixed and generated ids, so one request reads the same on every try', () => {
    const tries = [faultedTry([reset('GET', `/v2/subscribers/${PREFIX}-s-1/preferences`)], PREFIX), faultedTry([reset('GET', '/v2/subscribers/65a1b2c3d4e5f6a7b8c9d0e1/preferences')], PREFIX)];
    expect(repeatedFinding(tries)).toContain('GET /v2/subscribers/{id}/preferences');
  });
});
