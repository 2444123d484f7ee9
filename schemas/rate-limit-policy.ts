// Parses `RateLimit-Policy` as the deployed service writes it (RL-02):
// `3000;w=5;burst=3300;comment="token bucket";category="trigger";cost="single";serviceLevel="team"`.

export interface RateLimitPolicy {
  limit: number;
  w: number;
  burst: number;
  comment?: string;
  category?: string;
  cost?: string;
  serviceLevel?: string;
}

export type PolicyParse = { ok: true; policy: RateLimitPolicy; missing: string[] } | { ok: false; error: string };

const EXPECTED_PARAMETERS = ['w', 'burst', 'comment', 'category', 'cost'] as const;

export function parseRateLimitPolicy(header: string | undefined): PolicyParse {
  if (header === undefined) return { ok: false, error: 'RateLimit-Policy is missing' };
  const [limitPart, ...params] = header.split(';').map((p) => p.trim());
  if (!limitPart || !/^\d+$/.test(limitPart)) return { ok: false, error: `RateLimit-Policy "${header}" does not start with an integer limit` };
  const values: Record<string, string> = {};
  for (const param of params) {
    const match = /^([A-Za-z][A-Za-z0-9_-]*)=(?:"([^"]*)"|([^";]*))$/.exec(param);
    if (!match) return { ok: false, error: `RateLimit-Policy "${header}" has a malformed parameter "${param}"` };
    values[match[1]!] = match[2] ?? match[3] ?? '';
  }
  for (const numeric of ['w', 'burst'] as const) {
    if (values[numeric] !== undefined && !/^\d+$/.test(values[numeric]!)) {
      return { ok: false, error: `RateLimit-Policy "${header}": ${numeric} is not an integer` };
    }
  }
  if (values.w === undefined || values.burst === undefined) return { ok: false, error: `RateLimit-Policy "${header}" lacks w= or burst=` };
  const policy: RateLimitPolicy = { limit: Number(limitPart), w: Number(values.w), burst: Number(values.burst) };
  for (const name of ['comment', 'category', 'cost', 'serviceLevel'] as const) if (values[name] !== undefined) policy[name] = values[name];
  return { ok: true, policy, missing: EXPECTED_PARAMETERS.filter((p) => values[p] === undefined) };
}

/** A policy's quota per window, read from the deployed syntax or the IETF structured one (`"name";q=100;w=10`). */
export type QuotaParse = { ok: true; limit: number; w: number; burst?: number; syntax: 'deployed' | 'ietf' } | { ok: false; error: string };

/** The quota the policy declares: the deployed syntax first, else the IETF draft's list (its shortest window: the one a load of seconds meets). */
export function parseRateLimitQuota(header: string | undefined): QuotaParse {
  const deployed = parseRateLimitPolicy(header);
  if (deployed.ok) return { ok: true, limit: deployed.policy.limit, w: deployed.policy.w, burst: deployed.policy.burst, syntax: 'deployed' };
  if (header === undefined || !header.trimStart().startsWith('"')) return deployed;
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
  return best ? { ok: true, ...best, syntax: 'ietf' } : deployed;
}
