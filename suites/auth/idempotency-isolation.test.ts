import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { freshKey, isReplay, withKey } from '../../fixtures/idempotency/keys.ts';

// AUTH-05 on idempotency keys: a key names a request of one environment. The same key and body sent with another
// environment's key is that environment's own request: it creates its own workflow, never replays the first one's.
conformance('AUTH-05', "the same Idempotency-Key and body with another environment's key creates that environment's own workflow", async ({ api, ids, cleanup, target, notVerified }) => {
  if (!target.features.idempotency) return notVerified('the target declares idempotency off: a key is no shared state to isolate');
  const workflowId = ids.slug('wf');
  for (const as of ['primary', 'secondary'] as const) cleanup.remove(`workflow ${workflowId} (${as})`, `/v2/workflows/${workflowId}`, { as });
  const body = { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'in-app', type: 'in_app' }] };
  const key = freshKey(ids);

  const first = await api.post<{ _id?: string }>('/v2/workflows', body, withKey(key));
  expect(first.status, 'the workflow is created with the primary key').toBe(201);
  const second = await api.post<{ _id?: string }>('/v2/workflows', body, { ...withKey(key), as: 'secondary' });
  expect(isReplay(second), "another environment's request must not be answered with the first environment's cached response").toBe(false);
  expect(second.status, "the same key in another environment is a new request: it creates that environment's workflow (201)").toBe(201);
  expect(second.data?._id, "the second environment's workflow is its own, not the first one's").not.toBe(first.data?._id);
  const read = await api.get<{ _id?: string }>(`/v2/workflows/${workflowId}`, { as: 'secondary' });
  expect(read.status, 'the secondary key reads the workflow it created').toBe(200);
  expect(read.data?._id, 'and it is the one its creation answered').toBe(second.data?._id);
}, { needs: ['secondaryKey'] });
