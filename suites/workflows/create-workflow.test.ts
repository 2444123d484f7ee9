// POST /v2/workflows: a valid body is created and echoed (WF-01, WF-02), and an answer the official client reads (CLIENT-02).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { expectCreated, postWorkflow, readWorkflow } from '../../fixtures/workflows/workflow-requests.ts';

conformance('WF-01', 'POST /v2/workflows with an empty steps array answers 201 and a workflow response', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [] });
  expect(res.status, 'a valid body with `steps: []` (the spec: "may be empty") is created with 201').toBe(201);
  expect(res.data).toMatchSchema('WorkflowResponseDto');
  expect(res.data.steps, 'the response lists no steps').toEqual([]);
});

conformance('WF-01', 'POST /v2/workflows with one in-app step answers 201 and a workflow response', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'In-app', type: 'in_app' }] });
  expect(res.status, 'a valid body is created with 201').toBe(201);
  expect(res.data).toMatchSchema('WorkflowResponseDto');
});

conformance('WF-01', 'POST /v2/workflows with payloadSchemas using a vendor keyword, a boolean subschema and object schemas without properties answers 201', async ({ api, ids, cleanup }) => {
  // Each is plain JSON Schema: unknown keywords are ignored, `true` is a schema, an object schema needs no properties.
  const payloadSchemas = [
    {
      type: 'object',
      'x-display-order': ['order', 'note', 'tags'],
      properties: { order: { type: 'object' }, note: true, tags: { type: 'array', items: { type: 'string' } } },
    },
    { type: 'object', additionalProperties: { type: 'string' } },
  ];
  for (const payloadSchema of payloadSchemas) {
    const workflowId = ids.slug('wf');
    const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [], payloadSchema });
    expect(res.status, `a valid body whose payloadSchema is a valid JSON Schema (${JSON.stringify(payloadSchema)}) is created with 201`).toBe(201);
    expect(res.data).toMatchSchema('WorkflowResponseDto');
  }
});

conformance('WF-02', 'the created workflow echoes name, workflowId, description, tags, payloadSchema, validatePayload, severity, active and isTranslationEnabled', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const sent = {
    name: `Conformance echo ${workflowId}`,
    workflowId,
    description: 'Echo check of the create-workflow response',
    tags: ['conformance', 'echo'],
    payloadSchema: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] },
    validatePayload: true,
    severity: 'high',
    active: true,
    isTranslationEnabled: true,
    steps: [{ name: 'In-app', type: 'in_app' }],
  };
  const res = await postWorkflow(api, cleanup, sent);
  expectCreated(res, 'the workflow is created');
  const wf = res.data;
  for (const field of ['name', 'workflowId', 'description', 'validatePayload', 'severity', 'active', 'isTranslationEnabled'] as const) {
    expect(wf[field], `the response echoes ${field} as sent`).toEqual(sent[field]);
  }
  expect([...(wf.tags ?? [])].sort(), 'the response echoes the tags as sent').toEqual([...sent.tags].sort());
  expect(wf.payloadSchema, 'the response echoes payloadSchema as sent').toMatchObject(sent.payloadSchema);
});

conformance('WF-02', 'a workflow created without active, isTranslationEnabled and agent has false, false and null', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [] });
  expectCreated(res, 'the workflow is created');
  expect(res.data.active, '`active` defaults to false').toBe(false);
  expect(res.data.isTranslationEnabled, '`isTranslationEnabled` defaults to false').toBe(false);
  expect(res.data, '`agent` is present and null when unassigned').toHaveProperty('agent', null);
});

conformance('WF-02', 'a workflow created with __source never returns __source', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [], __source: 'dashboard' });
  expectCreated(res, 'a body with a valid `__source` is created');
  expect(Object.keys(res.data), 'the create response never carries `__source`').not.toContain('__source');
  const read = await readWorkflow(api, res.data._id);
  expect(read.status, 'the created workflow reads back').toBe(200);
  expect(Object.keys(read.data), 'the workflow read back never carries `__source`').not.toContain('__source');
});

// The spec types `payloadSchema` as "object or null".
conformance('WF-01', 'POST /v2/workflows with payloadSchema null answers 201 and a workflow response', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [], payloadSchema: null });
  expect(res.status, 'a valid body with `payloadSchema: null` (the spec: object or null) is created with 201').toBe(201);
  expect(res.data).toMatchSchema('WorkflowResponseDto');
});

// `stepId` is optional: a step without one must not be refused because another step gives the id its name would get.
conformance('WF-01', 'POST /v2/workflows whose second step gives the stepId the first step\'s name would get answers 201', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const steps = [{ name: 'In-app', type: 'in_app' }, { name: 'Email', type: 'email', stepId: 'in-app' }];
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps });
  expect(res.status, 'a valid body (one step without stepId named "In-app", one with stepId "in-app") is created with 201').toBe(201);
  expect(res.data).toMatchSchema('WorkflowResponseDto');
  expect(((res.data.steps ?? []) as { type?: unknown }[]).map((s) => s.type), 'both steps are created').toEqual(['in_app', 'email']);
});

conformance('WF-02', 'a workflow created without tags carries no tags', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [] });
  expectCreated(res, 'the workflow is created');
  expect(res.data.tags ?? [], 'the response echoes the request: no tags were sent, so `tags` is absent or empty').toEqual([]);
});

// The passive CLIENT-02 check reads the answer with the official client's model (tags: array of strings); the
// deployed service refuses such tags (422).
conformance('CLIENT-02', 'a workflow with tags that are not all strings is rejected or answered with string tags', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [], tags: ['conformance', 7] });
  if (res.status >= 400 && res.status < 500) return;
  expectCreated(res, 'tags ["conformance", 7] are either rejected with 4xx or the workflow is created');
  for (const tag of (res.data.tags ?? []) as unknown[]) expect(tag, 'every tag of the answer is a string, as the official client reads it').toBeTypeOf('string');
});
