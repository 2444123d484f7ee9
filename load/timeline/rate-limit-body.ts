// RL-04: a 429 body is the JSON string "API rate limit exceeded" or a common error body with that message.

export const RATE_LIMIT_MESSAGE = 'API rate limit exceeded';

export function isRateLimitBody(text: string): boolean {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return false;
  }
  if (body === RATE_LIMIT_MESSAGE) return true;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const b = body as Record<string, unknown>;
  return b.message === RATE_LIMIT_MESSAGE && b.statusCode === 429 && typeof b.timestamp === 'string' && typeof b.path === 'string';
}

/** Retry-After / RateLimit-* values must be non-negative integers (RL-02). */
export function isNonNegativeInteger(value: string | undefined): boolean {
  return value !== undefined && /^\d+$/.test(value.trim());
}
