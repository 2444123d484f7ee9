import { describe, expect, it } from 'vitest';
import { PASSIVE_CHECKS } from '../../harness/checks/passive-checks.ts';
import type { Exchange } from '../../harness/http/exchange.ts';

const on = { idempotency: true, rateLimiting: true };
const headers = {
  'content-type': 'application/json; charset=utf-8',
  'ratelimit-limit': '3000',
  'ratelimit-remaining': '3299',
  'ratelimit-reset': '0',
  'ratelimit-policy': '3000;w=5;burst=3300;comment="token bucket";category="trigger";cost="single"',
};
const exchange = (status: number, body: unknown, extra: Partial<Exchange> = {}): Exchange => ({
  method: 'POST',
  url: 'http://127.0.0.1:1/v1/events/trigger',
  requestHeaders: {},
  status,
  responseHeaders: { ...headers },
  responseBody: body === undefined ? '' : JSON.stringify(body),
  durationMs: 1,
  authenticated: true,
  ...extra,
});
const verdict = (rule: string, e: Exchange) => {
  const check = PASSIVE_CHECKS.find((c) => c.rule === rule)!;
  return check.applies(e, on) ? (check.check(e) ?? 'ok') : 'n/a';
};
const common = { statusCode: 404, timestamp: '2026-01-01T00:00:00.000Z', path: '/v1/events/trigger' };

describe('passive checks', () => {
  it('ERR-01 accepts the common body and names what is wrong otherwise', () => {
    expect(verdict('ERR-01', exchange(404, common))).toBe('ok');
    expect(verdict('ERR-01', exchange(404, { ...common, statusCode: 400 }))).toContain('statusCode is 400');
    expect(verdict('ERR-01', exchange(404, { statusCode: 404, timestamp: 'x' }))).toContain('path');
    expect(verdict('ERR-01', exchange(404, { ...common, path: '/elsewhere' }))).toContain('expected the request path');
    expect(verdict('ERR-01', exchange(422, common))).toBe('n/a');
  });

  it('ERR-02 wants the errors map of {messages: string[]}', () => {
    const base = { ...common, statusCode: 422 };
    expect(verdict('ERR-02', exchange(422, { ...base, errors: { name: { messages: ['required'] } } }))).toBe('ok');
    expect(verdict('ERR-02', exchange(422, { ...base, errors: [{ field: 'name' }] }))).toContain('errors');
    expect(verdict('ERR-02', exchange(422, { ...base, errors: { name: { messages: 'required' } } }))).toContain('messages');
  });

  it('ERR-08 and ERR-09', () => {
    expect(verdict('ERR-08', exchange(500, { ...common, statusCode: 500 }))).toContain('errorId');
    expect(verdict('ERR-09', exchange(200, { a: 1 }, { responseHeaders: { 'content-type': 'text/plain' } }))).toContain('text/plain');
  });

  it('RL-01 and RL-02 on headers', () => {
    expect(verdict('RL-01', exchange(201, {}))).toBe('ok');
    expect(verdict('RL-01', exchange(201, {}, { responseHeaders: {} }))).toContain('lacks RateLimit-Limit'.toLowerCase());
    expect(verdict('RL-01', exchange(401, {}, { responseHeaders: {} }))).toBe('n/a');
    expect(verdict('RL-02', exchange(201, {}, { responseHeaders: { ...headers, 'ratelimit-remaining': '-1' } }))).toContain('non-negative');
    expect(verdict('RL-02', exchange(201, {}, { responseHeaders: { ...headers, 'ratelimit-remaining': '4000' } }))).toContain('exceeds');
  });

  it('RL-02 reads Reset and Retry-After as seconds within the window: an absolute time or milliseconds fails', () => {
    const epoch = String(Math.floor(Date.now() / 1000) + 1);
    expect(verdict('RL-02', exchange(201, {}, { responseHeaders: { ...headers, 'ratelimit-reset': '5' } }))).toBe('ok');
    expect(verdict('RL-02', exchange(201, {}, { responseHeaders: { ...headers, 'ratelimit-reset': epoch } }))).toContain('beyond the policy');
    expect(verdict('RL-02', exchange(429, {}, { responseHeaders: { ...headers, 'retry-after': '1000' } }))).toContain('beyond the policy');
  });

  it('RL-02 accepts the IETF structured policy, which states no burst to bound Remaining by', () => {
    const ietf = { ...headers, 'ratelimit-policy': '"trigger";q=3000;w=5', 'ratelimit-remaining': '3300' };
    expect(verdict('RL-02', exchange(201, {}, { responseHeaders: ietf }))).toBe('ok');
  });

  it('IDEM-04 wants the key echoed', () => {
    const keyed = { requestHeaders: { 'idempotency-key': 'k1' } };
    expect(verdict('IDEM-04', exchange(201, {}, { ...keyed, responseHeaders: { ...headers, 'idempotency-key': 'k1' } }))).toBe('ok');
    expect(verdict('IDEM-04', exchange(201, {}, keyed))).toContain('carries none');
    expect(verdict('IDEM-04', exchange(200, {}, { ...keyed, method: 'PATCH' }))).toContain('carries none');
  });

  it('IDEM-04 judges POST and PATCH only: a key sent on GET or DELETE is never echoed by the deployed service', () => {
    const keyed = { requestHeaders: { 'idempotency-key': 'k1' } };
    expect(verdict('IDEM-04', exchange(200, [], { ...keyed, method: 'GET', url: 'http://127.0.0.1:1/v1/environments' }))).toBe('n/a');
    expect(verdict('IDEM-04', exchange(200, {}, { ...keyed, method: 'DELETE', url: 'http://127.0.0.1:1/v2/topics/t/subscriptions' }))).toBe('n/a');
  });
});

describe('ERR-01 and the delete-topic-subscriptions result', () => {
  it('does not mistake the 400 result body of an all-failed delete for an error body', () => {
    const e = exchange(400, { data: [], meta: { totalCount: 1, successful: 0, failed: 1 }, errors: [] }, { method: 'DELETE', url: 'http://127.0.0.1:1/v2/topics/t/subscriptions' });
    expect(verdict('ERR-01', e)).toBe('n/a');
  });
});

describe('RL-01 scope', () => {
  it('applies to the eight operations only, not to unrouted paths', () => {
    expect(verdict('RL-01', exchange(404, {}, { responseHeaders: {}, url: 'http://127.0.0.1:1/v2/events/trigger' }))).toBe('n/a');
    expect(verdict('RL-01', exchange(404, {}, { responseHeaders: {}, method: 'PATCH', url: 'http://127.0.0.1:1/v2/subscribers/x/preferences' }))).toContain('lacks');
  });
});
