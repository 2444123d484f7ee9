// An answer to a request past the limits proxies hold requests to may come from the proxy, not the target: such an
// answer is the road's, never evidence about the target (nginx answers a long URI with 414, HAProxy with 400, both as
// HTML pages that carry none of the target's headers).

/** A URI this long is past some intermediaries' request-line limit (nginx 8 KB, common gateways 4 KB). */
export const LONG_URI_CHARS = 4_096;
/** A body this large is past some intermediaries' body limit or buffering (the suite's size probes send 512 KB+). */
export const LARGE_BODY_BYTES = 64 * 1024;

const TARGET_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'idempotency-key'];

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** Whether this request probes a limit that a proxy in front of the target may enforce first. */
export function probesRoadLimits(url: string, bodyBytes: number): boolean {
  return url.length > LONG_URI_CHARS || bodyBytes > LARGE_BODY_BYTES;
}

/**
 * Why this answer is taken for the road's (undefined when it may be the target's): an error status whose body is not
 * the JSON object every answer of the API carries (ERR-01, ERR-09) and that has none of the headers the target sends.
 */
export function roadAnswer(answer: Answer): string | undefined {
  if (answer.status < 400) return undefined;
  if (isJsonObject(answer.text)) return undefined;
  if (TARGET_HEADERS.some((h) => answer.headers[h] !== undefined)) return undefined;
  const type = answer.headers['content-type'] ?? '(no Content-Type)';
  const by = ['server', 'via'].map((h) => answer.headers[h]).filter((v) => v !== undefined);
  const page = answer.text.trim().replace(/\s+/g, ' ').slice(0, 80);
  return (
    `the answer (${answer.status}, ${type}${by.length > 0 ? `, from ${by.join(' via ')}` : ''}${page ? `: ${JSON.stringify(page)}` : ''}) ` +
    'came from something in front of the target, not the target: it is not the JSON error body the API answers with and carries none of its RateLimit or Idempotency-Key headers; ' +
    'raise that proxy\'s limit, or run the suite against the target directly'
  );
}

function isJsonObject(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null;
  } catch {
    return false;
  }
}
