import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { expectErrorResponse } from '../../harness/checks/error-body.ts';
import { OPERATIONS, operationLabel } from '../../harness/operations.ts';
import { expectSuccess, prepareValidRequest, sendPrepared } from '../../fixtures/idempotency/eight-operations.ts';
import { freshKey, isReplay, withKey } from '../../fixtures/idempotency/keys.ts';

// AUTH-01 and AUTH-04 with an Idempotency-Key an authorized request used: the idempotency cache sits after
// authentication and permission, so neither an unauthenticated caller nor the restricted key gets its replay.
const KEYED = OPERATIONS.filter((op) => op.method === 'POST' || op.method === 'PATCH');

for (const op of KEYED) {
  const label = operationLabel(op);

  conformance('AUTH-01', `${label} without Authorization gets 401, not the replay of an authorized request with the same Idempotency-Key`, async (ctx) => {
    const request = await prepareValidRequest(op, ctx);
    const key = freshKey(ctx.ids);
    expectSuccess(await sendPrepared(ctx.api, request, withKey(key)), `${label} with the primary key and an Idempotency-Key`);
    const res = await sendPrepared(ctx.api, request, { ...withKey(key), authorization: null });
    expect(isReplay(res), 'a request without Authorization must never receive a cached answer (Idempotency-Replay: true)').toBe(false);
    expectErrorResponse(res, 401, `${label} without Authorization, with the Idempotency-Key an authorized request used`);
  });

  // A layout preview writes nothing: whether a restricted key may preview is the key's business, not AUTH-04's.
  if (op.template === '/v2/layouts/{layoutId}/preview') continue;
  conformance('AUTH-04', `${label} with the restricted key gets 403, not the replay of an authorized request with the same Idempotency-Key`, async (ctx) => {
    const request = await prepareValidRequest(op, ctx);
    const key = freshKey(ctx.ids);
    expectSuccess(await sendPrepared(ctx.api, request, withKey(key)), `${label} with the primary key and an Idempotency-Key`);
    const res = await sendPrepared(ctx.api, request, { ...withKey(key), as: 'restricted' });
    expect(isReplay(res), 'the restricted key must never receive the cached answer of a write it may not make (Idempotency-Replay: true)').toBe(false);
    expectErrorResponse(res, 403, `${label} with the restricted key and the Idempotency-Key an authorized request used`);
  }, { needs: ['restrictedKey'] });
}
