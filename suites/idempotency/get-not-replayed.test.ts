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
