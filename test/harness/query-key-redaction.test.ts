// A key sent in the query string (AUTH-01's "a credential elsewhere is no credential" probes) never reaches a
// recorded exchange: its URL is redacted like its headers and body.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { ApiClient } from '../../harness/http/api-client.ts';
import { toCurl } from '../../harness/http/exchange.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../harness/runner/embedded-target.ts';
import { toProfile } from '../../harness/runner/profile.ts';

let target: EmbeddedTarget;
beforeAll(async () => {
  target = await startEmbeddedTarget([]);
});
afterAll(async () => target.reference.close());

it('redacts an API key sent as a query parameter from the recorded URL and its reproducer', async () => {
  const profile = toProfile(DEFAULT_SETTINGS, target);
  const api = new ApiClient(profile);
  const res = await api.get('/v1/environments', { authorization: null, query: { apiKey: profile.keys.primary } });
  expect(res.status).toBe(401);
  const [exchange] = api.exchanges;
  expect(exchange!.url).not.toContain(profile.keys.primary);
  expect(toCurl(exchange!)).not.toContain(profile.keys.primary);
  expect(exchange!.url).toContain('apiKey=');
});
