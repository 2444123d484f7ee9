import { describe, expect, it } from 'vitest';
import { parseRateLimitPolicy } from '../../schemas/rate-limit-policy.ts';

describe('parseRateLimitPolicy', () => {
  it('parses the deployed format', () => {
    const parsed = parseRateLimitPolicy('3000;w=5;burst=3300;comment="token bucket";category="trigger";cost="single";serviceLevel="team"');
    expect(parsed).toEqual({
      ok: true,
      missing: [],
      policy: { limit: 3000, w: 5, burst: 3300, comment: 'token bucket', category: 'trigger', cost: 'single', serviceLevel: 'team' },
    });
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
  ])('rejects %s', (header, why) => {
    const parsed = parseRateLimitPolicy(header);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toContain(why);
  });
});
