// A polite client: a test's ordinary requests keep a reserve in every token bucket they draw on, so a fast run
// never throttles itself, nor the target's other users (--no-drain promises not one 429). Only rate-limit tests,
// which send with `retryOn429: false`, spend a bucket to its end. One pacer per worker thread: every test in it
// waits; the other workers read the same bucket in their own responses' headers.
import { parseRateLimitPolicy } from '../../schemas/rate-limit-policy.ts';

/** The share of a bucket's burst an ordinary request leaves untouched (more than the requests a run has in flight). */
const RESERVE_SHARE = 0.1;
/** Never pause longer than this at a time: a policy that says a bucket refills slowly is re-read after each pause. */
const LONGEST_PAUSE_MS = 5_000;

const resumeAt = new Map<string, number>();

/** Waits while a bucket of this caller (base address and key) is down to its reserve. */
export async function awaitReserve(caller: string): Promise<void> {
  for (;;) {
    const ms = (resumeAt.get(caller) ?? 0) - Date.now();
    if (ms <= 0) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(ms, LONGEST_PAUSE_MS)));
  }
}

/** Reads a response's RateLimit-Remaining and -Policy: below the reserve, the caller pauses until it has refilled. */
export function noteBucket(caller: string, headers: Record<string, string>): void {
  const remaining = Number(headers['ratelimit-remaining']);
  const parsed = parseRateLimitPolicy(headers['ratelimit-policy']);
  if (!Number.isFinite(remaining) || !parsed.ok || parsed.policy.w <= 0 || parsed.policy.limit <= 0) return;
  const reserve = Math.ceil(parsed.policy.burst * RESERVE_SHARE);
  if (remaining >= reserve) return;
  const refillPerMs = parsed.policy.limit / parsed.policy.w / 1000;
  const until = Date.now() + Math.min(LONGEST_PAUSE_MS, (reserve - remaining) / refillPerMs);
  resumeAt.set(caller, Math.max(resumeAt.get(caller) ?? 0, until));
}
