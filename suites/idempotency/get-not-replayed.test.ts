import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { expectSuccess } from '../../fixtures/idempotency/eight-operations.ts';
import { freshKey, isReplay, withKey } from '../../fixtures/idempotency/keys.ts';

conformance('IDEM-07', 'a repeated keyed GET of environment variables is answered afresh', async ({ api, ids, provision, notVerified }) => {
  const key = freshKey(ids);
  const first = await api.get('/v1/environment-variables', withKey(key));
  expectSuccess(first, 'the first keyed GET /v1/environment-variables');
  const { own } = await provision.environments();
  if (!own) return notVerified('the caller key’s own environment could not be identified (no environment lists apiKeys)');
  const variable = await provision.environmentVariable({ isSecret: false, values: [{ _environmentId: own._id, value: 'idem-07' }] });

  const second = await api.get('/v1/environment-variables', withKey(key));
  expectSuccess(second, 'the repeated keyed GET /v1/environment-variables');
  expect(isReplay(second), 'a GET is never replayed, yet the repeat carries Idempotency-Replay: true').toBe(false);
  const keys = Array.isArray(second.data) ? second.data.map((v: { key?: unknown }) => v.key) : [];
  expect(keys, 'the repeated GET must reflect the variable created in between (a cached list would not)').toContain(variable.key);
});

conformance('IDEM-07', 'a repeated keyed GET of environments carries no Idempotency-Replay', async ({ api, ids }) => {
  const key = freshKey(ids);
  for (const attempt of ['first', 'second']) {
    const res = await api.get('/v1/environments', withKey(key));
    expectSuccess(res, `the ${attempt} keyed GET /v1/environments`);
    expect(isReplay(res), `a GET is never replayed, yet the ${attempt} answer carries Idempotency-Replay: true`).toBe(false);
  }
});

conformance('IDEM-07', 'a keyed GET leaves the answer stored for its key: the POST repeated with the key afterwards is still replayed', async ({ api, ids, cleanup }) => {
  const key = freshKey(ids);
  const workflowId = ids.slug('wf');
  cleanup.remove(`workflow ${workflowId}`, `/v2/workflows/${workflowId}`);
  const body = { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'in-app', type: 'in_app' }] };
  const first = await api.post('/v2/workflows', body, withKey(key));
  expectSuccess(first, 'the keyed workflow creation');
  for (const path of ['/v1/environments', '/v1/environment-variables']) {
    const read = await api.get(path, withKey(key));
    expectSuccess(read, `the GET ${path} with the same key`);
    expect(isReplay(read), `a GET is never replayed, yet GET ${path} carries Idempotency-Replay: true`).toBe(false);
  }
  const repeat = await api.post('/v2/workflows', body, withKey(key));
  expect(isReplay(repeat), `the creation repeated with its key after keyed GETs must still be replayed (Idempotency-Replay: true), got ${repeat.status} ${repeat.text.slice(0, 200)}`).toBe(true);
  expect(repeat.status, 'the replay carries the stored status').toBe(first.status);
  expect(repeat.text, 'the replay carries the stored body').toBe(first.text);
});
