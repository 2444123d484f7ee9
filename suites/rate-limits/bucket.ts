// Reading a token bucket through the RateLimit-* headers, exhausting it, and waiting until it has refilled.
// Rate-limit suites run after the functional ones, one file at a time, so these readings see only their own traffic.
import { parseRateLimitPolicy, type RateLimitPolicy } from '../../harness/checks/rate-limit-policy.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';

export interface BucketReading {
  remaining: number;
  policy: RateLimitPolicy;
  /** Tokens the bucket regains per second: the policy's limit spread over its window. */
  refillPerSecond: number;
}

export function readBucket(res: ApiResponse): BucketReading | undefined {
  const remaining = Number(res.headers['ratelimit-remaining']);
  const parsed = parseRateLimitPolicy(res.headers['ratelimit-policy']);
  if (!Number.isInteger(remaining) || !parsed.ok || parsed.policy.w <= 0) return undefined;
  return { remaining, policy: parsed.policy, refillPerSecond: parsed.policy.limit / parsed.policy.w };
}

/** A response together with the client-side time span that contains its processing on the target. */
export interface Timed {
  res: ApiResponse;
  sentAt: number;
  receivedAt: number;
}

export async function timed(send: () => Promise<ApiResponse>): Promise<Timed> {
  const sentAt = performance.now();
  const res = await send();
  return { res, sentAt, receivedAt: performance.now() };
}

export interface Exhaustion {
  /** The first response `isRejection` picked out, or undefined when `maxRequests` passed without one. */
  rejected: ApiResponse | undefined;
  /** Every response of the batch that produced it (some may still be accepted). */
  lastBatch: ApiResponse[];
  sent: number;
}

/**
 * Sends batches of concurrent requests until one counts as the rejection looked for (by default any 429)
 * or `maxRequests` have gone out. `batch()` gives the senders of the next batch.
 */
export async function exhaust(
  batch: () => (() => Promise<ApiResponse>)[],
  maxRequests: number,
  isRejection: (res: ApiResponse, index: number) => boolean = (res) => res.status === 429,
): Promise<Exhaustion> {
  let sent = 0;
  while (sent < maxRequests) {
    const senders = batch().slice(0, maxRequests - sent);
    const responses = await Promise.all(senders.map((send) => send()));
    sent += senders.length;
    const rejected = responses.find(isRejection);
    if (rejected) return { rejected, lastBatch: responses, sent };
  }
  return { rejected: undefined, lastBatch: [], sent };
}

/** `count` copies of one sender, for `exhaust`. */
export const repeated = (send: () => Promise<ApiResponse>, count: number) => () => Array.from({ length: count }, () => send);

/** Milliseconds until a bucket last seen with `reading` is full again (nothing else drawing on it). */
export function msUntilFull(reading: BucketReading): number {
  return (Math.max(0, reading.policy.burst - reading.remaining) / reading.refillPerSecond) * 1000;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * Remembers when the buckets a file drained will be full again, so that the file can wait once at its end
 * (afterAll) instead of after every test, and the next file starts with full buckets.
 */
export class RefillGate {
  private fullAt = 0;

  /** Notes a response of a drained bucket; without readable headers, falls back to `fallbackMs`. */
  note(res: ApiResponse | undefined, fallbackMs: number): void {
    const reading = res && readBucket(res);
    const ms = reading ? msUntilFull(reading) : fallbackMs;
    this.fullAt = Math.max(this.fullAt, performance.now() + ms + 100);
  }

  async wait(maxMs: number): Promise<void> {
    await sleep(Math.min(maxMs, this.fullAt - performance.now()));
  }
}
