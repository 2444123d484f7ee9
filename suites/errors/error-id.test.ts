// errorId is "only available for 500" (spec § Errors): every 4xx the suite can provoke, on several operations,
// carries an error body without it (ERR-11). The check on every exchange of the run watches all other traffic.
import { expect } from 'vitest';
import { conformance, type ConformanceContext } from '../../fixtures/conformance.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';

type Provoke = (ctx: ConformanceContext) => Promise<ApiResponse>;

/** One request for each 4xx status of the spec's table that needs no special key or load. */
const PROVOCATIONS: Record<string, Provoke> = {
  '400 malformed JSON': ({ api }) => api.request('POST', '/v2/workflows', { rawBody: '{"name":', contentType: 'application/json' }),
  '401 no Authorization': ({ api }) => api.get('/v1/environments', { authorization: null }),
  '401 unknown key': ({ api }) => api.patch('/v2/subscribers/x/preferences', { channels: { email: true } }, { authorization: 'ApiKey nope' }),
  '404 unknown workflow': ({ api, ids }) => api.get(`/v2/workflows/${ids.slug('missing')}`),
  '404 unknown layout preview': ({ api, ids }) => api.post(`/v2/layouts/${ids.slug('missing')}/preview`, { controlValues: {}, previewPayload: {} }),
  '405 unsupported method': ({ api }) => api.request('PUT', '/v1/environments', { body: {} }),
  '414 overlong URI': ({ api }) => api.get('/v1/environments', { query: { filler: 'a'.repeat(20_000) } }),
  '415 non-JSON media type': ({ api, ids }) => api.request('POST', '/v2/workflows', { rawBody: `name=${ids.slug('wf')}`, contentType: 'application/x-www-form-urlencoded' }),
  '422 workflow without name': ({ api }) => api.post('/v2/workflows', { steps: [] }),
  '4xx trigger without name': ({ api }) => api.post('/v1/events/trigger', { to: ['x'] }),
};

conformance('ERR-11', 'error bodies of 4xx answers (400, 401, 404, 405, 414, 415, 422) carry no errorId', async (ctx) => {
  const judged: string[] = [];
  for (const [what, provoke] of Object.entries(PROVOCATIONS)) {
    const res = await provoke(ctx);
    if (res.status < 400 || res.status >= 500 || typeof res.json !== 'object' || res.json === null) continue;
    judged.push(`${what} → ${res.status}`);
    expect('errorId' in res.json ? res.json.errorId : '(none)', `the ${res.status} error body of "${what}" carries errorId, which belongs to a 500 only`).toBe('(none)');
  }
  expect(judged.length, `at least one provoked answer is a 4xx with a JSON error body; got none of ${Object.keys(PROVOCATIONS).join(', ')}`).toBeGreaterThan(0);
  ctx.note(`judged: ${judged.join('; ')}`);
});
