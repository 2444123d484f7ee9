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

const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/** The restricted key may read but never write. */
export function isForbidden(rec: ApiKeyRecord, method: string): boolean {
  return rec.restricted && WRITE_METHODS.has(method);
}
