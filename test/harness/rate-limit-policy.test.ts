import { describe, expect, it } from 'vitest';
import { parseRateLimitPolicy } from '../../schemas/rate-limit-policy.ts';

describe('parseRateLimitPolicy', () => {
  it('parses the deployed format', () => {
    const parsed = parseRateLimitPolicy('3000;w=5;burst=3300;comment="token bucket";category="trigger";cost="single";serviceLevel="team"');
    expect(parsed).toEqual({
      ok: true,
      missing: [],
      policy: { limit: 3000, w: 5, burst: 3300, burstStated: true, syntax: 'deployed', comment: 'token bucket', category: 'trigger', cost: 'single', serviceLevel: 'team' },
    });
  });

  it.each([
    ['"trigger";q=3000;w=5', 'trigger'],
    ['trigger;q=3000;w=5', 'trigger'],
    ['"trigger";q=3000;w=5;qu="requests";pk=:cHJvamVjdDEyMw==:, "daily";q=100000;w=86400', 'trigger'],
    ['"a;b";q=3000;w=5', 'a;b'],
  ])('reads the limit and the window of the IETF structured form %s', (header, name) => {
    const parsed = parseRateLimitPolicy(header);
    expect(parsed).toEqual({ ok: true, missing: ['burst', 'comment', 'category', 'cost'], policy: { limit: 3000, w: 5, burst: 3000, burstStated: false, syntax: 'ietf', name } });
  });

  it('reports parameters that are missing but not required', () => {
    const parsed = parseRateLimitPolicy('3000;w=5;burst=3300');
    expect(parsed.ok && parsed.missing).toEqual(['comment', 'category', 'cost']);
  });

  it.each([
    [undefined, 'missing'],
    ['w=5;burst=3300', 'integer limit'],
    ['3000;w=five;burst=3300', 'w is not an integer'],
    ['3000;burst=3300', 'lacks w='],
    ['3000;w=5;burst=3300;comment="unterminated', 'malformed parameter'],
    ['"trigger";w=5', 'lacks q='],
    ['"trigger";q=3000', 'lacks w='],
    ['"trigger";q=3000.5;w=5', 'q is not an integer'],
    ['"trigger";q=3000;w=5s', 'w is not an integer'],
    ['limit=3000, window=5s', 'starts with neither'],
  ])('rejects %s', (header, why) => {
    const parsed = parseRateLimitPolicy(header);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toContain(why);
  });
});
