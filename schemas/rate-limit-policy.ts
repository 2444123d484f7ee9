// Parses `RateLimit-Policy` in either syntax RL-02 allows, and returns the limit and the window of both:
// - the deployed form `3000;w=5;burst=3300;comment="token bucket";category="trigger";cost="single";serviceLevel="team"`;
// - the IETF structured form `"trigger";q=3000;w=5` (draft-ietf-httpapi-ratelimit-headers: a list of policies, each a
//   name with parameters `q` quota, `w` window, optional `qu`, `pk`); the first policy of the list is read.
// Hand-written: the header is one line of a small grammar, and no structured-field parser is in the tree.

export interface RateLimitPolicy {
  limit: number;
  w: number;
  /** The most the bucket holds. The IETF form states none: there it is the quota, and `burstStated` is false. */
  burst: number;
  burstStated: boolean;
  syntax: 'deployed' | 'ietf';
  /** The policy's name (IETF form only). */
  name?: string;
  comment?: string;
  category?: string;
  cost?: string;
  serviceLevel?: string;
}

export type PolicyParse = { ok: true; policy: RateLimitPolicy; missing: string[] } | { ok: false; error: string };

/** The deployed service's parameter set (a SHOULD under RL-02); the IETF form lacks all but w. */
const EXPECTED_PARAMETERS = ['w', 'burst', 'comment', 'category', 'cost'] as const;
const INTEGER = /^\d+$/;
/** One structured-field parameter: `;key=value` with an integer, decimal, token, "string" or :byte sequence: value. */
const PARAMETER = /^([A-Za-z*][A-Za-z0-9_.*-]*)(?:=(?:"((?:[^"\\]|\\.)*)"|(:[A-Za-z0-9+/=]*:)|([^";,\s]*)))?$/;

export function parseRateLimitPolicy(header: string | undefined): PolicyParse {
  if (header === undefined) return { ok: false, error: 'RateLimit-Policy is missing' };
  const split = splitParameters(header);
  if (!split) return { ok: false, error: `RateLimit-Policy "${header}" has a malformed parameter (a quoted string never ends)` };
  const [first, ...params] = split;
  if (first === undefined || first === '') return { ok: false, error: `RateLimit-Policy "${header}" is empty` };
  const values: Record<string, string> = {};
  for (const param of params) {
    const match = PARAMETER.exec(param);
    if (!match) return { ok: false, error: `RateLimit-Policy "${header}" has a malformed parameter "${param}"` };
    values[match[1]!] = match[2] ?? match[3] ?? match[4] ?? '?1';
  }
  return INTEGER.test(first) ? deployed(header, Number(first), values) : ietf(header, first, values);
}

function deployed(header: string, limit: number, values: Record<string, string>): PolicyParse {
  for (const numeric of ['w', 'burst'] as const) {
    if (values[numeric] !== undefined && !INTEGER.test(values[numeric]!)) return { ok: false, error: `RateLimit-Policy "${header}": ${numeric} is not an integer` };
  }
  if (values.w === undefined || values.burst === undefined) return { ok: false, error: `RateLimit-Policy "${header}" lacks w= or burst=` };
  const policy: RateLimitPolicy = { limit, w: Number(values.w), burst: Number(values.burst), burstStated: true, syntax: 'deployed' };
  for (const name of ['comment', 'category', 'cost', 'serviceLevel'] as const) if (values[name] !== undefined) policy[name] = values[name];
  return { ok: true, policy, missing: EXPECTED_PARAMETERS.filter((p) => values[p] === undefined) };
}

function ietf(header: string, first: string, values: Record<string, string>): PolicyParse {
  const name = /^"((?:[^"\\]|\\.)*)"$/.exec(first)?.[1] ?? (/^[A-Za-z*][A-Za-z0-9_.:/%*-]*$/.test(first) ? first : undefined);
  if (name === undefined) return { ok: false, error: `RateLimit-Policy "${header}" starts with neither an integer limit (deployed form) nor a policy name (IETF form "<name>";q=<quota>;w=<seconds>)` };
  for (const numeric of ['q', 'w'] as const) {
    if (values[numeric] === undefined) return { ok: false, error: `RateLimit-Policy "${header}" (IETF form) lacks ${numeric}=` };
    if (!INTEGER.test(values[numeric]!)) return { ok: false, error: `RateLimit-Policy "${header}": ${numeric} is not an integer` };
  }
  const quota = Number(values.q);
  const policy: RateLimitPolicy = { limit: quota, w: Number(values.w), burst: quota, burstStated: false, syntax: 'ietf', name };
  return { ok: true, policy, missing: EXPECTED_PARAMETERS.filter((p) => p !== 'w') };
}

/** The first list member's item and its parameters, split at `;` outside quoted strings. */
function splitParameters(header: string): string[] | undefined {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header[i]!;
    if (quoted && c === '\\') {
      current += c + (header[++i] ?? '');
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (!quoted && c === ',') break; // the next policy of an IETF list
    if (!quoted && c === ';') {
      parts.push(current.trim());
      current = '';
    } else current += c;
  }
  parts.push(current.trim());
  return quoted ? undefined : parts;
}

/** A policy's quota per window, read from the deployed syntax or the IETF structured one (`"name";q=100;w=10`). */
export type QuotaParse = { ok: true; limit: number; w: number; burst?: number; syntax: 'deployed' | 'ietf' } | { ok: false; error: string };

/** The quota the policy declares: the deployed syntax first, else the IETF draft's list (its shortest window: the one a load of seconds meets). */
export function parseRateLimitQuota(header: string | undefined): QuotaParse {
  const deployed = parseRateLimitPolicy(header);
  if (deployed.ok && deployed.policy.syntax === 'deployed') return { ok: true, limit: deployed.policy.limit, w: deployed.policy.w, burst: deployed.policy.burst, syntax: 'deployed' };
  if (header === undefined || !header.trimStart().startsWith('"')) return deployed.ok ? { ok: true, limit: deployed.policy.limit, w: deployed.policy.w, syntax: 'ietf' } : deployed;
  let best: { limit: number; w: number } | undefined;
  for (const item of header.split(',')) {
    const [name, ...params] = item.split(';').map((p) => p.trim());
    if (!name || !/^"[^"]*"$/.test(name)) return { ok: false, error: `RateLimit-Policy "${header}" has an item without a quoted name` };
    const values = Object.fromEntries(params.map((p) => p.split('=', 2) as [string, string | undefined]));
    if (values.q === undefined || !/^\d+$/.test(values.q)) return { ok: false, error: `RateLimit-Policy "${header}": ${name} lacks an integer q=` };
    const w = values.w !== undefined && /^\d+$/.test(values.w) ? Number(values.w) : 0;
    if (!(w > 0)) return { ok: false, error: `RateLimit-Policy "${header}": ${name} lacks a positive integer w=` };
    if (!best || w < best.w) best = { limit: Number(values.q), w };
  }
  return best ? { ok: true, ...best, syntax: 'ietf' } : { ok: false, error: `RateLimit-Policy "${header}" names no policy` };
}
