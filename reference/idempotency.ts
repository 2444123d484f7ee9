// Idempotency-key store (the server scopes keys per environment): in-flight lock, cached replays, lazy expiry.

import { COMPLETED_TTL_MS, IN_PROGRESS_TTL_MS } from './idempotency-ttl.ts';

export interface StoredResponse {
  status: number;
  body: string | undefined;
  headers: Record<string, string>;
}

interface Entry {
  fingerprint: string;
  state: 'in-progress' | 'done';
  expiresAt: number;
  response?: StoredResponse;
}

export type BeginResult =
  | { kind: 'new' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'in-progress' }
  | { kind: 'mismatch' };

export const MAX_KEY_LENGTH = 255;

export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  private sweepAt = 0;

  /** When `lock` is false (idempotency-race fault) nothing is recorded until complete(). */
  constructor(
    private readonly lock = true,
    private readonly inProgressTtlMs = IN_PROGRESS_TTL_MS,
    private readonly completedTtlMs = COMPLETED_TTL_MS,
  ) {}

  /** Must be called synchronously before any await so concurrent duplicates see the lock. */
  begin(key: string, fingerprint: string, now = Date.now()): BeginResult {
    this.sweep(now);
    const e = this.entries.get(key);
    if (e && e.expiresAt > now) {
      if (e.state === 'in-progress') return { kind: 'in-progress' };
      if (e.fingerprint !== fingerprint) return { kind: 'mismatch' };
      return { kind: 'replay', response: e.response! };
    }
    if (this.lock) this.entries.set(key, { fingerprint, state: 'in-progress', expiresAt: now + this.inProgressTtlMs });
    else this.entries.delete(key);
    return { kind: 'new' };
  }

  complete(key: string, fingerprint: string, response: StoredResponse, now = Date.now()): void {
    this.entries.set(key, { fingerprint, state: 'done', expiresAt: now + this.completedTtlMs, response });
  }

  /** The answer stored for a completed key, without taking part in the protocol (for faults). */
  stored(key: string, now = Date.now()): StoredResponse | undefined {
    const e = this.entries.get(key);
    return e && e.state === 'done' && e.expiresAt > now ? e.response : undefined;
  }

  /** Forgets an in-flight key (5xx, 429): the next request with it is processed afresh. */
  release(key: string): void {
    const e = this.entries.get(key);
    if (e && e.state === 'in-progress') this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  // why: lazy expiry, at most once a minute, keeps memory bounded without timers
  private sweep(now: number): void {
    if (now < this.sweepAt) return;
    this.sweepAt = now + 60_000;
    for (const [k, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(k);
  }
}

export const inProgressMessage = (key: string): string =>
  `Request with key "${key}" is currently being processed. Please retry after 1 second`;
export const reusedMessage = (key: string): string => `Request with key "${key}" is being reused for a different body`;
export const IDEMPOTENCY_DOCS_LINK = '<https://docs.novu.co/api-reference/idempotency>; rel="help"';
