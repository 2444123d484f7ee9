// Idempotency-key helpers shared by the IDEM suites: fresh keys of a chosen length, the header, replay detection.
import type { IdFactory } from '../../harness/conformance/ids.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';

/** The longest key IDEM-01 requires a target to accept. */
export const MAX_KEY_LENGTH = 255;

/** A key never used before (run prefix + counter), padded to `length` characters when given. */
export function freshKey(ids: IdFactory, length?: number): string {
  const key = ids.slug('idem');
  if (length === undefined) return key;
  if (key.length > length) throw new Error(`a fresh key needs ${key.length} characters, more than ${length}`);
  return key + 'k'.repeat(length - key.length);
}

export const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

/** `Idempotency-Replay: true` marks a cached response (IDEM-02). */
export const isReplay = (res: ApiResponse): boolean => res.headers['idempotency-replay']?.trim().toLowerCase() === 'true';
