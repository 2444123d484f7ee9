import { describe, expect, it } from 'vitest';
import { ERROR_ID_ONLY_ON_500 } from '../../harness/checks/error-id.ts';
import { EVERY_EXCHANGE_CHECKS } from '../../harness/checks/schema-checks.ts';
import type { Exchange } from '../../harness/http/exchange.ts';
import { jsonExchange } from './json-exchange.ts';

const exchange = (status: number, body: unknown) => jsonExchange('GET', '/v2/workflows/x', status, body);
const verdict = (e: Exchange) => (ERROR_ID_ONLY_ON_500.applies(e, { idempotency: true, rateLimiting: true }) ? (ERROR_ID_ONLY_ON_500.check(e) ?? 'ok') : 'n/a');
const common = { statusCode: 404, timestamp: '2026-01-01T00:00:00.000Z', path: '/v2/workflows/x' };

describe('ERR-11 check on every exchange', () => {
  it('flags errorId on any error body but a 500, also an empty or null one', () => {
    expect(verdict(exchange(404, common))).toBe('ok');
    expect(verdict(exchange(404, { ...common, errorId: 'abc' }))).toContain('errorId "abc"');
    expect(verdict(exchange(422, { ...common, errorId: null }))).toContain('errorId null');
    expect(verdict(exchange(401, { ...common, errorId: '' }))).toContain('errorId ""');
  });

  it('leaves a 500, a success and a non-JSON body alone, and runs on every exchange of a run', () => {
    expect(verdict(exchange(500, { ...common, errorId: 'abc' }))).toBe('n/a');
    expect(verdict(exchange(201, { errorId: 'abc' }))).toBe('n/a');
    expect(verdict(exchange(429, '"API rate limit exceeded"'))).toBe('n/a');
    expect(EVERY_EXCHANGE_CHECKS).toContain(ERROR_ID_ONLY_ON_500);
  });
});
