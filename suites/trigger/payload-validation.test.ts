// Trigger payload validation against the workflow's payloadSchema (TRIG-06): the error body, each errors[] entry, and a valid payload.
import { expect } from 'vitest';
import { type ConformanceContext, conformance } from '../../fixtures/conformance.ts';
import { postWorkflow } from '../../fixtures/workflows/workflow-requests.ts';
import { TRIGGER_PATH, expectNothingTriggered, expectTriggered, freshRecipients, lastTriggeredAt } from '../../fixtures/trigger/trigger-effects.ts';

const PAYLOAD_SCHEMA = {
  type: 'object',
  properties: {
    orderId: { type: 'string' },
    amount: { type: 'number', minimum: 0 },
  },
  required: ['orderId'],
};
const VALID_PAYLOAD = { orderId: 'order-1', amount: 12.5 };
const INVALID_PAYLOAD = { orderId: 42, amount: 3 }; // orderId must be a string

conformance('TRIG-06', 'answers a payload violating the payloadSchema with a PAYLOAD_VALIDATION_ERROR body', async ({ api, provision, ids }) => {
  const wf = await provision.workflow({ validatePayload: true, payloadSchema: PAYLOAD_SCHEMA });
  const [recipient] = freshRecipients(ids, provision, 1);
  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [recipient], payload: INVALID_PAYLOAD });
  expect(res.status, 'a payload violating the payloadSchema is rejected with a 4xx (deployed: 400)').toBeGreaterThanOrEqual(400);
  expect(res.status, 'a payload violating the payloadSchema is rejected with a 4xx (deployed: 400), not a 5xx').toBeLessThan(500);

  const body = res.json as Record<string, any>;
  expect(body, 'the payload validation error body').toMatchSchema('PayloadValidationErrorDto');
  expect(body.type, 'the error body has type PAYLOAD_VALIDATION_ERROR').toBe('PAYLOAD_VALIDATION_ERROR');
  expect(body.statusCode, 'the common field statusCode equals the HTTP status').toBe(res.status);
  expect(body.timestamp, 'the common field timestamp').toBeTypeOf('string');
  expect(body.path, 'the common field path').toBeTypeOf('string');
  expect(Array.isArray(body.errors) && body.errors.length > 0, 'errors[] lists at least one violation').toBe(true);
  for (const entry of body.errors as Record<string, unknown>[]) {
    for (const field of ['field', 'message', 'value', 'schemaPath']) {
      expect(Object.hasOwn(entry, field), `each errors[] entry has \`${field}\`; got ${JSON.stringify(entry)}`).toBe(true);
    }
    expect(entry.field, 'errors[].field is a string').toBeTypeOf('string');
    expect(entry.message, 'errors[].message is a string').toBeTypeOf('string');
    expect(entry.schemaPath, 'errors[].schemaPath is a string').toBeTypeOf('string');
  }
  const orderIdError = (body.errors as Record<string, unknown>[]).find((e) => String(e.field).includes('orderId'));
  expect(orderIdError, `errors[] names the violating field orderId; got ${JSON.stringify(body.errors)}`).toBeDefined();
  expect(orderIdError?.value, 'the errors[] entry carries the offending value').toBe(INVALID_PAYLOAD.orderId);
  expect(body.schema, 'the error body carries the workflow\'s payload JSON Schema').toMatchObject(PAYLOAD_SCHEMA);
});

conformance('TRIG-01', 'processes a payload violating the payloadSchema when the workflow has validatePayload: false', async ({ api, provision, ids, target }) => {
  // The spec: `validatePayload` "enables or disables payload schema validation"; disabled, the payload is not judged by the schema.
  const wf = await provision.workflow({ validatePayload: false, payloadSchema: PAYLOAD_SCHEMA });
  const [recipient] = freshRecipients(ids, provision, 1);
  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [recipient], payload: INVALID_PAYLOAD });
  expect(res.status, 'with validatePayload: false, a payload violating the payloadSchema is a valid trigger, answered 201').toBe(201);
  expect(res.data.acknowledged, 'the trigger is acknowledged').toBe(true);
  expect(res.data.status, 'the trigger of an active workflow with steps is processed').toBe('processed');
  await expectTriggered({ api, target }, [recipient!.subscriberId], 'a trigger whose workflow does not validate its payload');
});

conformance('TRIG-06', 'triggers nothing for a payload violating the payloadSchema and processes a valid payload', async ({ api, provision, ids, target }) => {
  const wf = await provision.workflow({ validatePayload: true, payloadSchema: PAYLOAD_SCHEMA });
  const before = await lastTriggeredAt(api, wf);
  const [rejected, accepted] = freshRecipients(ids, provision, 2);

  const bad = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [rejected], payload: INVALID_PAYLOAD });
  expect(bad.status, 'a payload violating the payloadSchema is rejected with a 4xx').toBeGreaterThanOrEqual(400);
  await expectNothingTriggered({ api, target }, { wf, before, subscriberIds: [rejected!.subscriberId], why: 'a trigger whose payload violates the payloadSchema' });

  const good = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [accepted], payload: VALID_PAYLOAD });
  expect(good.status, 'a payload satisfying the payloadSchema is accepted with 201').toBe(201);
  expect(good.data.status, 'a payload satisfying the payloadSchema is processed').toBe('processed');
  await expectTriggered({ api, target }, [accepted!.subscriberId], 'a trigger with a valid payload');
});

// The errors[] entries one by one: a schema with a nested object, an array and a root-level limit, and payloads that
// each break it in exactly one place (so a target that lists only the first violation still answers every MUST case).
const DETAIL_SCHEMA = {
  type: 'object',
  maxProperties: 3,
  properties: {
    orderId: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    customer: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
  },
  required: ['orderId'],
};

async function payloadErrors(ctx: ConformanceContext, wf: { workflowId: string }, payload: Record<string, unknown>, what: string) {
  const [recipient] = freshRecipients(ctx.ids, ctx.provision, 1);
  const res = await ctx.api.post(TRIGGER_PATH, { name: wf.workflowId, to: [recipient], payload });
  expect(res.status, `${what}: the payload is rejected with a 4xx (deployed: 400)`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what}: the payload is rejected with a 4xx, not a 5xx`).toBeLessThan(500);
  const errors = (res.json as Record<string, unknown>)?.errors;
  expect(Array.isArray(errors) && errors.length > 0, `${what}: errors[] lists the violation; got ${JSON.stringify(errors)}`).toBe(true);
  return errors as Record<string, unknown>[];
}

conformance('TRIG-06', 'names a missing required property in errors[].field, at the top level and nested', async (ctx) => {
  const wf = await ctx.provision.workflow({ validatePayload: true, payloadSchema: DETAIL_SCHEMA });
  const cases = [
    { payload: { tags: ['vip'] }, missing: 'orderId' },
    { payload: { orderId: 'order-1', customer: {} }, missing: 'email' },
  ];
  for (const { payload, missing } of cases) {
    const errors = await payloadErrors(ctx, wf, payload, `a payload without the required ${missing}`);
    const named = errors.some((e) => typeof e.field === 'string' && e.field.includes(missing));
    expect(named, `the errors[] entry for the missing property names it (${missing}) in \`field\`; got ${JSON.stringify(errors)}`).toBe(true);
  }
});

conformance('TRIG-06', 'carries the offending value in errors[].value for a violation inside an array and at the payload root', async (ctx) => {
  const wf = await ctx.provision.workflow({ validatePayload: true, payloadSchema: DETAIL_SCHEMA });
  const inArray = await payloadErrors(ctx, wf, { orderId: 'order-1', tags: ['vip', 7] }, 'a payload whose tags[1] is a number');
  expect(inArray, 'the errors[] entry of the array item carries the offending item (7) as `value`').toContainEqual(expect.objectContaining({ value: 7 }));

  const tooMany = { orderId: 'order-1', tags: [], customer: { email: 'a@example.com' }, note: 'fourth property' };
  const atRoot = await payloadErrors(ctx, wf, tooMany, 'a payload with more properties than maxProperties (3)');
  expect(atRoot, 'the errors[] entry of a violation by the whole payload carries the payload as `value`').toContainEqual(expect.objectContaining({ value: tooMany }));
});

conformance(
  'TRIG-06',
  'names a nested violation in errors[].field by its dotted path, as the deployed service does',
  async (ctx) => {
    const wf = await ctx.provision.workflow({ validatePayload: true, payloadSchema: DETAIL_SCHEMA });
    const errors = await payloadErrors(ctx, wf, { orderId: 'order-1', customer: { email: 42 } }, 'a payload whose customer.email is a number');
    expect(errors, 'the errors[] entry names the nested field `customer.email` (the deployed service: the instance path in dot notation)').toContainEqual(
      expect.objectContaining({ field: 'customer.email', value: 42 }),
    );
  },
  { level: 'SHOULD' },
);

conformance(
  'TRIG-06',
  'lists every violation of the payload in errors[], as the deployed service does',
  async (ctx) => {
    const wf = await ctx.provision.workflow({ validatePayload: true, payloadSchema: DETAIL_SCHEMA });
    const errors = await payloadErrors(ctx, wf, { orderId: 42, tags: 'vip' }, 'a payload whose orderId and tags both have the wrong type');
    for (const name of ['orderId', 'tags']) {
      const named = errors.some((e) => typeof e.field === 'string' && e.field.includes(name));
      expect(named, `errors[] has an entry for each violation (the deployed service validates with allErrors), also for ${name}; got ${JSON.stringify(errors)}`).toBe(true);
    }
  },
  { level: 'SHOULD' },
);

// A payloadSchema that is no JSON Schema (`type` outside the JSON Schema types): the target may refuse the workflow
// (4xx), or create it; once created, a valid trigger of it is a valid trigger (TRIG-01), never a server error.
conformance('TRIG-01', 'a workflow with validatePayload and a payloadSchema that is no JSON Schema is refused, or its valid trigger gets 201', async ({ api, ids, cleanup, provision }) => {
  const workflowId = ids.slug('wf-bad-schema');
  const created = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'In-app', type: 'in_app' }], active: true, validatePayload: true, payloadSchema: { type: 'not-a-type' } });
  expect(created.status, `the workflow is refused with a 4xx or created, never a 5xx; got ${created.status}`).toBeLessThan(500);
  if (created.status >= 400) return;
  const [recipient] = freshRecipients(ids, provision, 1);
  const res = await api.post(TRIGGER_PATH, { name: workflowId, to: [recipient], payload: { orderId: 'order-1' } });
  expect(res.status, `the workflow was created, so a valid trigger of it is answered 201 (TRIG-01), got ${res.status} ${res.text.slice(0, 200)}`).toBe(201);
});
