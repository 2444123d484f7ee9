import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { expectErrorResponse } from '../../harness/checks/error-body.ts';
import { OPERATIONS, operationLabel } from '../../harness/operations.ts';
import { expectSuccess, prepareValidRequest, sendPrepared } from '../../fixtures/idempotency/eight-operations.ts';
import { MAX_KEY_LENGTH, freshKey, withKey } from '../../fixtures/idempotency/keys.ts';

for (const op of OPERATIONS) {
  conformance('IDEM-01', `${operationLabel(op)} accepts a ${MAX_KEY_LENGTH}-character idempotency-key`, async (ctx) => {
    const request = await prepareValidRequest(op, ctx);
    const key = freshKey(ctx.ids, MAX_KEY_LENGTH);
    const res = await sendPrepared(ctx.api, request, withKey(key));
    expectSuccess(res, `a valid request carrying a ${MAX_KEY_LENGTH}-character idempotency-key`);
  });
}

conformance('IDEM-06', 'a 256-character idempotency-key gets 400 and creates no workflow', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  cleanup.remove(`workflow ${workflowId}`, `/v2/workflows/${workflowId}`);
  const key = freshKey(ids, MAX_KEY_LENGTH + 1);
  const res = await api.post('/v2/workflows', { name: `conformance ${workflowId}`, workflowId, steps: [] }, withKey(key));
  expectErrorResponse(res, 400, `an idempotency-key of ${key.length} characters`);
  const read = await api.get(`/v2/workflows/${workflowId}`);
  expect(read.status, 'the request rejected for its key must not have created the workflow').toBe(404);
});

conformance('IDEM-06', 'a 256-character idempotency-key on a trigger gets 400', async ({ api, ids, provision }) => {
  const workflow = await provision.workflow();
  const subscriber = await provision.subscriber();
  const res = await api.post('/v1/events/trigger', { name: workflow.workflowId, to: [subscriber.subscriberId] }, withKey(freshKey(ids, MAX_KEY_LENGTH + 1)));
  expectErrorResponse(res, 400, `an idempotency-key of ${MAX_KEY_LENGTH + 1} characters`);
});
