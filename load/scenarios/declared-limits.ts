// What a target declares about its buckets (RateLimit-Policy), used to size phases so the burst is really spent.
import { parseRateLimitPolicy } from '../../schemas/rate-limit-policy.ts';
import type { Category } from './routes.ts';

/** A category's bucket: capacity and refill rate. */
export interface DeclaredLimit {
  burst: number;
  ratePerS: number;
}

export type DeclaredLimits = Partial<Record<Category, DeclaredLimit>>;

/** The bucket a RateLimit-Policy value declares, or undefined when it does not parse (the verdict reports why). */
export function declaredLimitOf(header: string | undefined): DeclaredLimit | undefined {
  const parsed = parseRateLimitPolicy(header);
  if (!parsed.ok || parsed.policy.w <= 0) return undefined;
  return { burst: parsed.policy.burst, ratePerS: parsed.policy.limit / parsed.policy.w };
}
