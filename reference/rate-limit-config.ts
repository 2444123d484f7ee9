// The rate limiter's configuration: the deployed service's rates per category (RL-05, RL-08) and its 5-second window,
// and what a start's options and the rate faults make of them. Apart from index.ts so that the mutation run mutates it.
import type { FaultName } from './faults.ts';

export type RateCategory = 'trigger' | 'configuration' | 'global';

// RL-08: a bulk request costs 100 tokens, so the configuration bucket's 200/s allows 2 bulk subscriber requests per second
export const DEFAULT_RATE_LIMITS = { trigger: 600, configuration: 200, global: 600 } as const;
/** The deployed service's window: a bucket holds `rate × window` tokens (RateLimit-Policy `w=5`). */
export const DEFAULT_RATE_LIMIT_WINDOW_SECONDS = 5;

/** The rates and window a reference starts with: the defaults, overridden by its options, bent by the rate faults. */
export function rateLimitConfig(
  options: { rateLimits?: Partial<Record<RateCategory, number>>; rateLimitWindowSeconds?: number },
  faults: { has(fault: FaultName): boolean },
): { rps: Record<RateCategory, number>; windowSeconds: number } {
  const rps: Record<RateCategory, number> = { ...DEFAULT_RATE_LIMITS, ...(options.rateLimits ?? {}) };
  if (faults.has('limit-too-generous')) rps.trigger = rps.trigger * 1.5;
  if (faults.has('limit-too-strict')) rps.trigger = (rps.trigger * 2) / 3;
  return { rps, windowSeconds: options.rateLimitWindowSeconds ?? DEFAULT_RATE_LIMIT_WINDOW_SECONDS };
}
