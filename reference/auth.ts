// `Authorization: ApiKey <key>` parsing and key lookup (plus the auth faults).
import type { App } from './context.ts';
import type { ApiKeyRecord } from './store.ts';

const API_KEY_SCHEME = /^apikey +(\S+)$/i;

/** The key record for the header, or null (→ 401). */
export function authenticate(app: App, header: string | undefined): ApiKeyRecord | null {
  const keys = app.org.apiKeys;
  const devRecord = () => keys.get(app.org.keys.dev)!;
  if (header === undefined) return app.has('missing-auth-accepted') ? devRecord() : null;
  const h = header.trim();
  const m = (app.has('key-then-garbage-accepted') ? /^apikey +(\S+)/i : app.has('scheme-suffix-accepted') ? /apikey +(\S+)$/i : API_KEY_SCHEME).exec(h);
  if (m) {
    const key = m[1]!;
    const rec = keys.get(key);
    if (rec) return rec;
    if (app.has('trailing-garbage-accepted')) {
      for (const [k, r] of keys) if (key.startsWith(k)) return r;
    }
    return app.has('unknown-key-accepted') ? devRecord() : null;
  }
  if (/^apikey\s*$/i.test(h)) return app.has('unknown-key-accepted') ? devRecord() : null;
  if (app.has('bearer-accepted')) {
    const b = /^bearer +(\S+)$/i.exec(h);
    if (b) return keys.get(b[1]!) ?? null;
  }
  if (app.has('bare-key-accepted')) return keys.get(h) ?? null;
  return null;
}

/**
 * The Authorization header the request is judged by. Only that header carries a credential; the faults
 * `x-api-key-accepted` and `query-api-key-accepted` also take a key from `X-Api-Key` or `?apiKey=`.
 */
export function credentialHeader(app: App, headers: Record<string, string | string[] | undefined>, query: URLSearchParams): string | undefined {
  const authorization = first(headers.authorization);
  if (authorization !== undefined) return authorization;
  const xApiKey = first(headers['x-api-key']);
  if (xApiKey !== undefined && app.has('x-api-key-accepted')) return `ApiKey ${xApiKey}`;
  const queryKey = query.get('apiKey');
  if (queryKey !== null && app.has('query-api-key-accepted')) return `ApiKey ${queryKey}`;
  return undefined;
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** The restricted key may read but never write. */
export function isForbidden(rec: ApiKeyRecord, method: string): boolean {
  return rec.restricted && WRITE_METHODS.has(method);
}
