// One request per category before the load: what the target declares (RateLimit-Policy) sizes the phases.
import { request } from 'undici';
import { declaredLimitOf, type DeclaredLimits } from '../scenarios/declared-limits.ts';
import { bodyFor, PROBE_ROUTES, ROUTES, type Category, type LoadFixture } from '../scenarios/routes.ts';

export interface ProbedLimits {
  declared: DeclaredLimits;
  /** The raw RateLimit-Policy of each category that sent one. */
  policies: Partial<Record<Category, string>>;
}

export async function probeDeclaredLimits(baseUrl: string, apiKey: string, fixture: LoadFixture): Promise<ProbedLimits> {
  const out: ProbedLimits = { declared: {}, policies: {} };
  for (const [category, name] of Object.entries(PROBE_ROUTES) as [Category, keyof typeof ROUTES][]) {
    const route = ROUTES[name];
    const body = bodyFor(name, fixture);
    const res = await request(new URL(route.path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`), {
      method: route.method,
      headers: { authorization: `ApiKey ${apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ?? null,
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    await res.body.dump();
    const header = res.headers['ratelimit-policy'];
    const policy = Array.isArray(header) ? header[0] : header;
    const limit = declaredLimitOf(policy);
    if (policy !== undefined) out.policies[category] = policy;
    if (limit) out.declared[category] = limit;
  }
  return out;
}
