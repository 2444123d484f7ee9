// ERR-08 and ERR-09 are checked on every exchange; these tests give the fault proof exchanges of their own:
// a request most likely to surface a 500 if one is lurking, and a JSON success and error labelled by type.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';

const JSON_TYPE = /^application\/json\s*(;|$)/i;

conformance('ERR-08', 'a 500 provoked by a malformed body, if any, carries errorId', async ({ api, notVerified }) => {
  const res = await api.request('POST', '/v2/workflows', { rawBody: '{"name": "conformance", "steps": [', contentType: 'application/json' });
  if (res.status !== 500) notVerified(`the malformed body was answered ${res.status}: no 500 to observe (ERR-08 holds only where a 500 happens)`);
  const body = res.json as { errorId?: unknown } | undefined;
  expect(typeof body?.errorId === 'string' && body.errorId.length > 0, `a 500 carries a non-empty errorId, got ${JSON.stringify(body?.errorId)}`).toBe(true);
});

conformance('ERR-09', 'a JSON success and a JSON error are both served as application/json', async ({ api, ids }) => {
  const ok = await api.get('/v1/environments');
  expect(ok.headers['content-type'] ?? '(none)', 'the 200 JSON body of GET /v1/environments is labelled application/json').toMatch(JSON_TYPE);
  const missing = await api.get(`/v2/workflows/${ids.slug('missing')}`);
  expect(missing.json, 'setup: the unknown-workflow error has a JSON body').toBeDefined();
  expect(missing.headers['content-type'] ?? '(none)', `the ${missing.status} JSON error body is labelled application/json`).toMatch(JSON_TYPE);
});
