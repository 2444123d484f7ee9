// Rules that hold for every exchange, checked on all traffic of every test (not only the test about them).
import type { RuleId } from '../../requirements/index.ts';
import type { Exchange } from '../http/exchange.ts';
import type { FeatureSettings } from '../../config/settings.ts';
import { isOperation } from '../operations.ts';
import { parseRateLimitPolicy } from '../../schemas/rate-limit-policy.ts';

export interface PassiveCheck {
  rule: RuleId;
  /** Whether this exchange is evidence for the rule at all. */
  applies(exchange: Exchange, features: FeatureSettings): boolean;
  /** A violation message, or undefined when the exchange keeps the rule. */
  check(exchange: Exchange): string | undefined;
}

// Each recorded body is parsed once, however many checks look at it.
const parsedBodies = new WeakMap<Exchange, unknown>();
export function responseJson(e: Exchange): unknown {
  if (parsedBodies.has(e)) return parsedBodies.get(e);
  let body: unknown;
  try {
    body = e.responseBody ? JSON.parse(e.responseBody) : undefined;
  } catch {
    body = undefined;
  }
  parsedBodies.set(e, body);
  return body;
}
const json = responseJson;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const status = (e: Exchange) => e.status ?? 0;
const isDeleteSubscriptionsResult = (e: Exchange) =>
  e.method === 'DELETE' && /\/v2\/topics\/[^/]+\/subscriptions$/.test(new URL(e.url).pathname) && isObject(json(e)) && 'meta' in (json(e) as object);
const RATE_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy'];
const nonNegativeInteger = (v: string | undefined) => v !== undefined && /^\d+$/.test(v.trim());

function commonBodyProblem(e: Exchange, body: Record<string, unknown>): string | undefined {
  if (body.statusCode !== status(e)) return `statusCode is ${JSON.stringify(body.statusCode)}, expected ${status(e)}`;
  if (typeof body.timestamp !== 'string') return `timestamp is ${JSON.stringify(body.timestamp)}, expected a string`;
  if (typeof body.path !== 'string') return `path is ${JSON.stringify(body.path)}, expected a string`;
  const requestPath = new URL(e.url).pathname;
  const reported = body.path.split('?')[0]!;
  // A target behind a path prefix may report the path below its base address.
  if (reported !== requestPath && !(reported.length > 1 && requestPath.endsWith(reported))) {
    return `path is "${body.path}", expected the request path "${requestPath}"`;
  }
  return undefined;
}

export const PASSIVE_CHECKS: readonly PassiveCheck[] = [
  {
    rule: 'ERR-01',
    // The delete-topic-subscriptions 400 carries its result body instead (TS-08), so it is not an error body.
    applies: (e) => status(e) >= 400 && ![422, 429, 503].includes(status(e)) && isObject(json(e)) && !isDeleteSubscriptionsResult(e),
    check: (e) => {
      const problem = commonBodyProblem(e, json(e) as Record<string, unknown>);
      return problem && `${status(e)} body is not the common error body: ${problem}`;
    },
  },
  {
    rule: 'ERR-02',
    applies: (e) => status(e) === 422,
    check: (e) => {
      const body = json(e);
      if (!isObject(body)) return '422 body is not a JSON object';
      const problem = commonBodyProblem(e, body);
      if (problem) return `422 body lacks the common fields: ${problem}`;
      if (!isObject(body.errors)) return `422 body has no "errors" map (got ${JSON.stringify(body.errors)})`;
      for (const [field, entry] of Object.entries(body.errors)) {
        if (!isObject(entry) || !Array.isArray(entry.messages) || !entry.messages.every((m) => typeof m === 'string')) {
          return `422 errors["${field}"] is not {messages: string[], value?}`;
        }
      }
      return undefined;
    },
  },
  {
    rule: 'ERR-08',
    applies: (e) => status(e) === 500,
    check: (e) => {
      const body = json(e);
      return isObject(body) && typeof body.errorId === 'string' && body.errorId.length > 0 ? undefined : '500 response carries no errorId';
    },
  },
  {
    rule: 'ERR-09',
    applies: (e) => json(e) !== undefined,
    check: (e) => {
      const type = e.responseHeaders?.['content-type'] ?? '';
      return /^application\/json\s*(;|$)/i.test(type) ? undefined : `JSON body served with Content-Type "${type || '(none)'}"`;
    },
  },
  {
    rule: 'RL-01',
    // "Responses of the operations": the eight operations, not unrouted paths (VER-01 probes those).
    applies: (e, f) => f.rateLimiting && e.authenticated && status(e) > 0 && status(e) !== 401 && status(e) !== 414 && isOperation(e.method, e.url),
    check: (e) => {
      const missing = RATE_HEADERS.filter((h) => e.responseHeaders?.[h] === undefined);
      return missing.length === 0 ? undefined : `${status(e)} response lacks ${missing.join(', ')}`;
    },
  },
  {
    rule: 'RL-02',
    applies: (e, f) => f.rateLimiting && RATE_HEADERS.some((h) => e.responseHeaders?.[h] !== undefined),
    check: (e) => {
      const h = e.responseHeaders ?? {};
      for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after']) {
        if (h[name] !== undefined && !nonNegativeInteger(h[name])) return `${name} is "${h[name]}", not a non-negative integer`;
      }
      const parsed = parseRateLimitPolicy(h['ratelimit-policy']);
      if (!parsed.ok) return parsed.error;
      // the IETF form states no burst, so its Remaining has no bound here
      if (parsed.policy.burstStated && h['ratelimit-remaining'] !== undefined && Number(h['ratelimit-remaining']) > parsed.policy.burst) {
        return `RateLimit-Remaining ${h['ratelimit-remaining']} exceeds the policy's burst ${parsed.policy.burst}`;
      }
      // seconds to wait: beyond the window is an absolute time or another unit
      for (const name of ['ratelimit-reset', 'retry-after']) {
        if (h[name] !== undefined && Number(h[name]) > parsed.policy.w) return `${name} is ${h[name]}, beyond the policy's window of ${parsed.policy.w} s: not the seconds to wait (an absolute time, or milliseconds?)`;
      }
      return undefined;
    },
  },
  {
    rule: 'RL-10',
    applies: (e) => status(e) === 503,
    check: (e) => (nonNegativeInteger(e.responseHeaders?.['retry-after']) ? undefined : '503 response carries no integer Retry-After'),
  },
  {
    rule: 'IDEM-04',
    // POST and PATCH only: the deployed service never echoes the key on GET or DELETE (RULES.md IDEM-04)
    applies: (e, f) =>
      f.idempotency && ['POST', 'PATCH'].includes(e.method.toUpperCase()) && e.requestHeaders['idempotency-key'] !== undefined && e.authenticated && ![401, 403, 414].includes(status(e)) && status(e) > 0,
    check: (e) => {
      const sent = e.requestHeaders['idempotency-key'];
      const got = e.responseHeaders?.['idempotency-key'];
      return got === sent ? undefined : `request sent Idempotency-Key "${sent}", response carries ${got === undefined ? 'none' : `"${got}"`}`;
    },
  },
];
