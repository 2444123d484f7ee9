import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import type { ConformanceFixtures } from '../../fixtures/conformance-test.ts';
import { expectSuccess } from '../../fixtures/idempotency/eight-operations.ts';
import { freshKey, withKey } from '../../fixtures/idempotency/keys.ts';
import { TRIGGER_PATH } from '../../fixtures/trigger/trigger-effects.ts';

/** Creates one workflow with a fresh key, then sends another workflow's body with the same key; expects 422. */
async function reuseKeyForAnotherWorkflow({ api, ids, cleanup }: Pick<ConformanceFixtures, 'api' | 'ids' | 'cleanup'>) {
  const key = freshKey(ids);
  const [firstId, secondId] = [ids.slug('wf'), ids.slug('wf')];
  for (const id of [firstId, secondId]) cleanup.remove(`workflow ${id}`, `/v2/workflows/${id}`);
  const bodyOf = (workflowId: string) => ({ name: `conformance ${workflowId}`, workflowId, steps: [] });

  expectSuccess(await api.post('/v2/workflows', bodyOf(firstId), withKey(key)), 'the first keyed workflow creation');
  const reused = await api.post('/v2/workflows', bodyOf(secondId), withKey(key));
  expect(reused.status, `the same idempotency-key with a different body must get 422, got ${reused.status}: ${reused.text.slice(0, 300)}`).toBe(422);
  return { key, secondId, reused };
}

conformance('IDEM-05', 'a key reused for a different workflow body gets 422 and creates nothing', async ({ api, ids, cleanup }) => {
  const { secondId } = await reuseKeyForAnotherWorkflow({ api, ids, cleanup });
  const read = await api.get(`/v2/workflows/${secondId}`);
  expect(read.status, 'the request rejected for its reused key must not have created its workflow').toBe(404);
});

conformance('IDEM-05', 'a key reused for a different preference update gets 422 and changes nothing', async ({ api, ids, provision }) => {
  const subscriber = await provision.subscriber();
  const path = `/v2/subscribers/${subscriber.subscriberId}/preferences`;
  const key = freshKey(ids);

  const smsBefore = (await api.get(path)).data?.global?.channels?.sms;
  expectSuccess(await api.patch(path, { channels: { email: false } }, withKey(key)), 'the first keyed preference update');
  const reused = await api.patch(path, { channels: { sms: smsBefore === false } }, withKey(key));
  expect(reused.status, `the same idempotency-key with a different body must get 422, got ${reused.status}: ${reused.text.slice(0, 300)}`).toBe(422);
  const read = await api.get(path);
  expect(read.status, 'reading the preferences back').toBe(200);
  expect(read.data?.global?.channels?.sms, 'the PATCH rejected for its reused key must not have changed sms').toBe(smsBefore);
});

// The deployed service names the reused key (provisioning.md: 'Request with key "<key>" is being reused for a different
// body'), so a client can tell this 422 from a validation error of its own body.
conformance('IDEM-05', 'a 422 for a reused key names that key in its message', async ({ api, ids, cleanup }) => {
  const { key, reused } = await reuseKeyForAnotherWorkflow({ api, ids, cleanup });
  const message = (reused.json as { message?: unknown } | undefined)?.message;
  expect(message, 'the 422 message names the Idempotency-Key that was reused').toEqual(expect.stringContaining(key));
});

// Bodies that differ only in how their values nest or split: a target that compares bodies loosely (a lossy
// fingerprint) would take each second body for the first and replay it. Each pair is a different JSON value, and
// also a different text as the client sends it.
const NESTING_PAIRS: { label: string; first: unknown; second: unknown }[] = [
  { label: '[12] vs [1,2]', first: [12], second: [1, 2] },
  { label: '[[1,1]] vs [1,[1]]', first: [[1, 1]], second: [1, [1]] },
  { label: '[[1,1]] vs [[1],1]', first: [[1, 1]], second: [[1], 1] },
  { label: '{a:{a,b}} vs {a:{a},b}', first: { a: { a: 1, b: 1 } }, second: { a: { a: 1 }, b: 1 } },
  { label: '[1] vs [2]', first: [1], second: [2] },
];

conformance('IDEM-05', 'a key reused for a trigger whose payload differs only in how values nest or split gets 422', async ({ api, ids, provision }) => {
  const workflow = await provision.workflow();
  const subscriber = await provision.subscriber();
  const trigger = (v: unknown) => ({ name: workflow.workflowId, to: [subscriber.subscriberId], payload: { v } });
  for (const { label, first, second } of NESTING_PAIRS) {
    const key = freshKey(ids);
    expectSuccess(await api.post(TRIGGER_PATH, trigger(first), withKey(key)), `the first keyed trigger (payload.v ${label})`);
    const reused = await api.post(TRIGGER_PATH, trigger(second), withKey(key));
    expect(reused.status, `payload.v ${label}: the same idempotency-key with a different body must get 422, got ${reused.status}: ${reused.text.slice(0, 300)}`).toBe(422);
  }
});
