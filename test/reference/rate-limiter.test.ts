import { describe, expect, it } from 'vitest';
import { RateLimiter, TokenBucket } from '../../reference/rate-limiter.ts';

const rps = { trigger: 600, configuration: 200, global: 600 };

describe('TokenBucket', () => {
  it('starts full and refills continuously up to capacity', () => {
    const b = new TokenBucket(10, 2, 0);
    expect(b.tryTake(10, 0)).toBe(true);
    expect(b.tryTake(1, 0)).toBe(false);
    expect(b.tryTake(1, 499)).toBe(false);
    expect(b.tryTake(1, 500)).toBe(true);
    b.refill(100_000);
    expect(b.tokens).toBe(10);
  });
  it('reports seconds until a request of a cost fits', () => {
    const b = new TokenBucket(10, 4, 0);
    b.tryTake(10, 0);
    expect(b.secondsUntil(2)).toBeCloseTo(0.5);
    expect(b.secondsUntil(0)).toBe(0);
  });
});

describe('RateLimiter', () => {
  it('derives limit, burst and the policy header from rps and window', () => {
    const rl = new RateLimiter({ rps, windowSeconds: 5 });
    const d = rl.consume('env', 'trigger', 1, false, 0);
    expect(d.allowed).toBe(true);
    expect(d.headers).toEqual({
      'RateLimit-Limit': '3000',
      'RateLimit-Remaining': '3299',
      'RateLimit-Reset': '0',
      'RateLimit-Policy': '3000;w=5;burst=3300;comment="token bucket";category="trigger";cost="single";serviceLevel="team"',
    });
    const bulk = rl.consume('env', 'trigger', 100, true, 0);
    expect(bulk.headers['RateLimit-Remaining']).toBe('3199');
    expect(bulk.headers['RateLimit-Policy']).toContain('cost="bulk"');
  });
  it('answers 429 decisions with an integer Retry-After ≥ 1 equal to Reset', () => {
    const rl = new RateLimiter({ rps: { ...rps, configuration: 2 }, windowSeconds: 5 });
    for (let i = 0; i < 11; i++) expect(rl.consume('e', 'configuration', 1, false, 0).allowed).toBe(true);
    const d = rl.consume('e', 'configuration', 1, false, 0);
    expect(d.allowed).toBe(false);
    expect(d.retryAfter).toBe('1');
    expect(d.headers['RateLimit-Reset']).toBe('1');
    expect(d.headers['RateLimit-Remaining']).toBe('0');
    expect(rl.consume('e', 'configuration', 1, false, 500).allowed).toBe(true);
  });
  it('bulk subscribers (cost 100, configuration 200 rps) sustain 2 requests/s after the burst', () => {
    const rl = new RateLimiter({ rps, windowSeconds: 5 });
    let t = 0;
    let accepted = 0;
    while (rl.consume('e', 'configuration', 100, true, t).allowed) accepted++;
    expect(accepted).toBe(11); // burst 1100 / 100
    const denied = rl.consume('e', 'configuration', 100, true, t);
    expect(Number(denied.retryAfter)).toBe(1);
    accepted = 0;
    for (t = 0; t < 10_000; t += 50) if (rl.consume('e', 'configuration', 100, true, t).allowed) accepted++;
    expect(accepted).toBe(19); // one every 500 ms: t = 500, 1000, …, 9500
  });
  it('keeps categories and environments independent', () => {
    const rl = new RateLimiter({ rps: { trigger: 1, configuration: 1, global: 1 }, windowSeconds: 5 });
    for (let i = 0; i < 5; i++) rl.consume('a', 'trigger', 1, false, 0);
    expect(rl.consume('a', 'trigger', 1, false, 0).allowed).toBe(false);
    expect(rl.consume('a', 'configuration', 1, false, 0).allowed).toBe(true);
    expect(rl.consume('b', 'trigger', 1, false, 0).allowed).toBe(true);
  });
  it('peek never takes tokens', () => {
    const rl = new RateLimiter({ rps, windowSeconds: 5 });
    rl.consume('e', 'global', 1, false, 0);
    expect(rl.peek('e', 'global', 1, false, 0).headers['RateLimit-Remaining']).toBe('3299');
    expect(rl.peek('e', 'global', 1, false, 0).headers['RateLimit-Remaining']).toBe('3299');
  });
  it('sustains the configured rate: accepted ≤ burst + rps·t', () => {
    const rl = new RateLimiter({ rps, windowSeconds: 5 });
    let accepted = 0;
    for (let t = 0; t <= 10_000; t++) if (rl.consume('e', 'trigger', 1, false, t).allowed) accepted++; // offered 1000/s
    expect(accepted).toBeLessThanOrEqual(3300 + 600 * 10 + 1);
    expect(accepted).toBeGreaterThanOrEqual(3300 + 600 * 10 - 1);
  });
});
