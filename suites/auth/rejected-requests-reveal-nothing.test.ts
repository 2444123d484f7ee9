import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';
import { expectSuccess } from '../../fixtures/idempotency/eight-operations.ts';
import { freshKey, isReplay, withKey } from '../../fixtures/idempotency/keys.ts';

// AUTH-06: a 401/403 says nothing about the resource asked for, and is never the cached response of a key.
const UNAUTHENTICATED = { 'no Authorization header': null, 'an unknown key': 'ApiKey nope' } as const;

function expectNothingRevealed(res: ApiResponse, status: number, secrets: string[], what: string): void {
  expect(res.status, `${what} is refused with ${status}`).toBe(status);
  expect(isReplay(res), `${what}: a ${status} must not be an idempotency replay`).toBe(false);
  for (const secret of secrets) expect(res.text.includes(secret), `${what}: the ${status} body must carry no data of the resource ("${secret}" appears)`).toBe(false);
}

conformance('AUTH-06', 'a 401 to a read of an existing workflow carries none of its data', async ({ api, provision }) => {
  const workflow = await provision.workflow();
  for (const [label, authorization] of Object.entries(UNAUTHENTICATED)) {
    const res = await api.get(`/v2/workflows/${workflow.workflowId}`, { authorization });
    expectNothingRevealed(res, 401, [workflow._id, workflow.slug, workflow.name], `GET /v2/workflows/{workflowId} with ${label}`);
  }
});

conformance('AUTH-06', 'a 401 to a repeated keyed workflow creation is no replay', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  cleanup.remove(`workflow ${workflowId}`, `/v2/workflows/${workflowId}`);
  const body = { name: `conformance ${workflowId}`, workflowId, steps: [] };
  const key = freshKey(ids);
  const created = await api.post('/v2/workflows', body, withKey(key));
  expectSuccess(created, 'the keyed workflow creation');
  for (const [label, authorization] of Object.entries(UNAUTHENTICATED)) {
    const res = await api.post('/v2/workflows', body, { ...withKey(key), authorization });
    expectNothingRevealed(res, 401, [created.data?._id as string], `the same keyed creation repeated with ${label}`);
  }
});

conformance('AUTH-06', 'a 403 to a repeated keyed workflow creation is no replay', async ({ api, ids, cleanup, notVerified }) => {
  const workflowId = ids.slug('wf');
  cleanup.remove(`workflow ${workflowId}`, `/v2/workflows/${workflowId}`);
  const body = { name: `conformance ${workflowId}`, workflowId, steps: [] };
  const key = freshKey(ids);
  const created = await api.post('/v2/workflows', body, withKey(key));
  expectSuccess(created, 'the keyed workflow creation');
  const res = await api.post('/v2/workflows', body, { ...withKey(key), as: 'restricted' });
  if (res.status !== 401 && res.status !== 403) return notVerified(`the restricted key's write was not refused (${res.status}; AUTH-04's concern)`);
  expectNothingRevealed(res, res.status, [created.data?._id as string], 'the same keyed creation repeated with the restricted key');
}, { needs: ['restrictedKey'] });
