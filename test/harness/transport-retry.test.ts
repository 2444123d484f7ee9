// A transport fault is the network's until it repeats: the same request failing every time, try after try, is a finding.
import { describe, expect, it } from 'vitest';
import { countTraffic, faultedTry, judgeTries, MOST_TRIES, networkReason, repeatedFinding } from '../../harness/conformance/transport-retry.ts';
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

describe('a repeated fault weighed against the run\'s own fault rate', () => {
  const trigger = (n: number) => faultedTry([ok('POST', '/v2/workflows'), reset('POST', '/v1/events/trigger')], `${PREFIX}-${n}`);
  const tries = (prefix: string, count: number) => Array.from({ length: count }, () => faultedTry([ok('POST', '/v2/workflows'), reset('POST', '/v1/events/trigger')], prefix));
  /** A run whose other requests met `faulted` transport faults in `sent`. */
  const runWith = (prefix: string, sent: number, faulted: number) =>
    countTraffic(Array.from({ length: sent }, (_, i) => (i < faulted ? reset('GET', '/v1/environments') : ok('GET', '/v1/environments'))), prefix);

  it('on a clean network, the same request reset on 3 tries is a finding, with the odds said', () => {
    runWith('cft-clean1', 2_000, 0);
    const judged = judgeTries(tries('cft-clean1', 3), 2, 'cft-clean1');
    expect(judged.next).toBe('finding');
    expect(judged.next === 'finding' && judged.message).toMatch(/resets the connection on POST \/v1\/events\/trigger every time it is sent \(3 tries.*at this run's fault rate \(0 of 2000 other requests, 0\.0 %\) the network alone does that with probability /);
  });

  it('on a network that resets 6 % of requests, 3 tries are not enough: the test runs again, and at the bound the network is named', () => {
    runWith('cft-bad1', 2_000, 120);
    expect(judgeTries(tries('cft-bad1', 2), 2, 'cft-bad1').next).toBe('again');
    expect(judgeTries(tries('cft-bad1', 3), 2, 'cft-bad1').next).toBe('again');
    // 3,000 × 0.06^6 ≈ 1.4e-4: six tries in a row on one request is the target's even on this network
    expect(judgeTries(tries('cft-bad1', MOST_TRIES), 2, 'cft-bad1').next).toBe('finding');
    runWith('cft-worse1', 1_000, 300);
    const judged = judgeTries(tries('cft-worse1', MOST_TRIES), 2, 'cft-worse1');
    expect(judged.next).toBe('network');
    expect(judged.next === 'network' && judged.reason).toMatch(/^the network: POST \/v1\/events\/trigger faulted on each of 6 tries, but at this run's fault rate \(300 of 1000 other requests/);
  });

  it('faults that move between requests are the network once run.transportRetries are spent; no retries, no finding', () => {
    runWith('cft-move1', 100, 0);
    const moving = [faultedTry([reset('POST', '/v2/workflows')], 'cft-move1'), faultedTry([ok('POST', '/v2/workflows'), reset('GET', '/v1/environments')], 'cft-move1')];
    expect(judgeTries(moving.slice(0, 1), 2, 'cft-move1').next).toBe('again');
    expect(judgeTries([...moving, moving[0]!], 2, 'cft-move1').next).toBe('network');
    expect(judgeTries([trigger(1)], 0, 'cft-move1').next).toBe('network');
  });
});
