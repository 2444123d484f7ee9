// POST /v2/workflows: a valid body is created and echoed (WF-01, WF-02).
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
