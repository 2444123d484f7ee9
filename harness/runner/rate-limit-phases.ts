// The rate-limit suites never run beside the functional ones (those draw on the same buckets). The ones that need
// full buckets run first, on the target's untouched buckets; the ones that exhaust a bucket run last, when nothing
// that follows needs it full. Within a phase the files run at once, their tests ordered by the bucket plan in the
// order listed here.
import { basename } from 'node:path';

const RATE_LIMIT_DIR = /(^|[\\/])suites[\\/]rate-limits[\\/]/;

export const RATE_LIMIT_PHASES = {
  // IDEM-08 first: it needs the configuration bucket full, and every other test here draws on it.
  beforeFunctional: ['replay-token-cost', 'headers', 'overload', 'token-cost'],
  // RL-08 last: it exhausts the configuration bucket RL-06 needs (unless it has the secondary environment's).
  afterFunctional: ['trigger-bucket-exhaustion', 'bulk-subscribers-rate'],
} as const;

export function isRateLimitSuite(file: string): boolean {
  return RATE_LIMIT_DIR.test(file);
}

const nameOf = (file: string) => basename(file).replace(/\.test\.ts$/, '');

/** Rate-limit suite files per phase, in plan order; a file the plan does not name comes last. */
export function rateLimitPhases<T extends { moduleId: string }>(specs: T[]): { beforeFunctional: T[]; afterFunctional: T[] } {
  const rateLimit = specs.filter((s) => isRateLimitSuite(s.moduleId));
  const inOrder = (names: readonly string[]) => names.flatMap((name) => rateLimit.filter((s) => nameOf(s.moduleId) === name));
  const named: readonly string[] = [...RATE_LIMIT_PHASES.beforeFunctional, ...RATE_LIMIT_PHASES.afterFunctional];
  const unnamed = rateLimit.filter((s) => !named.includes(nameOf(s.moduleId)));
  return { beforeFunctional: inOrder(RATE_LIMIT_PHASES.beforeFunctional), afterFunctional: [...inOrder(RATE_LIMIT_PHASES.afterFunctional), ...unnamed] };
}
