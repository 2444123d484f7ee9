// Steps of a created workflow: the eleven types in order (WF-05), a required name and a slug-pattern stepId (WF-06).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { STEP_TYPES, expectCreated, expectNoWorkflow, postWorkflow } from '../../fixtures/workflows/workflow-requests.ts';

conformance('WF-05', 'a workflow with one step of each of the eleven types is created with their order and type kept', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const steps = STEP_TYPES.map((type, i) => ({ name: `Step ${i + 1} ${type}`, type }));
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps });
  expectCreated(res, `a workflow with steps of types ${STEP_TYPES.join(', ')} is accepted`);
  const returned = (res.data.steps ?? []) as { type?: unknown; name?: unknown }[];
  expect(returned.map((s) => s.type), 'the response steps keep the sent order and `type`').toEqual([...STEP_TYPES]);
  expect(returned.map((s) => s.name), 'the response steps keep the sent order and `name`').toEqual(steps.map((s) => s.name));
});

conformance('WF-05', 'a step of an unknown type is rejected with 4xx and creates nothing', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'Pigeon', type: 'carrier_pigeon' }] });
  expect(res.status, 'a step of type "carrier_pigeon" (not one of the eleven) is rejected with 4xx').toBeGreaterThanOrEqual(400);
  expect(res.status, 'a step of an unknown type is a client error, not a server error').toBeLessThan(500);
  await expectNoWorkflow(api, workflowId, 'the workflow with an unknown step type was rejected');
});

conformance('WF-06', 'a step without name is rejected with 4xx and creates nothing', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ type: 'in_app' }] });
  expect(res.status, 'a step without the required `name` is rejected with 4xx').toBeGreaterThanOrEqual(400);
  expect(res.status, 'a step without `name` is a client error, not a server error').toBeLessThan(500);
  await expectNoWorkflow(api, workflowId, 'the workflow with a nameless step was rejected');
});

// The spec marks `name` required; the deployed service also refuses an empty one (a SHOULD-level case of WF-06).
conformance(
  'WF-06',
  'a step with an empty name is rejected with 4xx and creates nothing',
  async ({ api, ids, cleanup }) => {
    const workflowId = ids.slug('wf');
    const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: '', type: 'in_app' }] });
    expect(res.status, 'a step with `name: ""` is a step without a name and is rejected with 4xx').toBeGreaterThanOrEqual(400);
    expect(res.status, 'a step with an empty name is a client error, not a server error').toBeLessThan(500);
    await expectNoWorkflow(api, workflowId, 'the workflow with an empty step name was rejected');
  },
  { level: 'SHOULD' },
);

conformance('WF-06', 'a stepId outside the slug pattern is rejected while a slug-pattern stepId is accepted', async ({ api, ids, cleanup }) => {
  const control = ids.slug('wf');
  const accepted = await postWorkflow(api, cleanup, { name: `conformance ${control}`, workflowId: control, steps: [{ name: 'In-app', type: 'in_app', stepId: 'in-app_1.a' }] });
  expectCreated(accepted, 'control: stepId "in-app_1.a" matches the slug pattern and is accepted');

  for (const stepId of ['in app', 'in-app!', '-in-app']) {
    const workflowId = ids.slug('wf');
    const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'In-app', type: 'in_app', stepId }] });
    expect(res.status, `stepId ${JSON.stringify(stepId)} is outside the slug pattern and must be rejected (4xx)`).toBeGreaterThanOrEqual(400);
    expect(res.status, `stepId ${JSON.stringify(stepId)}: a client error, not a server error`).toBeLessThan(500);
    await expectNoWorkflow(api, workflowId, `the workflow with stepId ${JSON.stringify(stepId)} was rejected`);
  }
});

// The spec: stepId is a unique step identifier. A target may refuse two steps giving the same one (4xx), or keep both
// steps under distinct stepIds; never two steps of one identifier.
conformance('WF-06', 'two steps giving the same stepId are refused, or stored with distinct stepIds', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf-dup-step');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'First', type: 'in_app', stepId: 'notify' }, { name: 'Second', type: 'in_app', stepId: 'notify' }] });
  expect(res.status, `two steps with stepId "notify" are refused with a 4xx or created, never a 5xx; got ${res.status}`).toBeLessThan(500);
  if (res.status >= 400) return await expectNoWorkflow(api, workflowId, 'the workflow with two steps of one stepId was refused');
  const stepIds = ((res.data?.steps ?? []) as { stepId?: unknown }[]).map((s) => s.stepId);
  expect(stepIds.length, 'the response carries both steps').toBe(2);
  expect(new Set(stepIds).size, `the two steps are stored under distinct stepIds (a unique step identifier), got ${JSON.stringify(stepIds)}`).toBe(2);
});
