// Wire format of the workflow response: string timestamps, non-empty ids, the step types the spec lists (WF-10). The
// timestamp format and the origin/status/severity values are open in the spec: workflow-open-values.test.ts (WF-11).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { SLUG_PATTERN, STEP_TYPES, WORKFLOW_TIMESTAMPS, expectCreated, postWorkflow, readWorkflow } from '../../fixtures/workflows/workflow-requests.ts';

function expectWireFormat(wf: Record<string, any>, source: string): void {
  for (const field of WORKFLOW_TIMESTAMPS) {
    const value = wf[field];
    if (value === null || (value === undefined && field.startsWith('last'))) continue;
    expect(value, `${source}: \`${field}\` is a timestamp string (any format: the spec leaves it open)`).toBeTypeOf('string');
  }
  for (const field of ['_id', 'slug'] as const) {
    expect(typeof wf[field] === 'string' && wf[field].length > 0, `${source}: \`${field}\` is a non-empty string, got ${JSON.stringify(wf[field])}`).toBe(true);
  }
  for (const field of ['origin', 'status', 'severity'] as const) {
    expect(wf[field], `${source}: \`${field}\` is a string (its values are open in the spec)`).toBeTypeOf('string');
  }
  for (const step of (wf.steps ?? []) as Record<string, unknown>[]) {
    expect(STEP_TYPES as readonly unknown[], `${source}: step type is one of the eleven`).toContain(step.type);
    for (const field of ['_id', 'slug'] as const) {
      const value = step[field];
      expect(typeof value === 'string' && value.length > 0, `${source}: step \`${field}\` is a non-empty string, got ${JSON.stringify(value)}`).toBe(true);
    }
  }
}

conformance('WF-10', 'the workflow response carries string timestamps, non-empty _id and slug, and listed step types', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, {
    name: `conformance ${workflowId}`,
    workflowId,
    severity: 'medium',
    steps: [{ name: 'In-app', type: 'in_app' }, { name: 'Delay', type: 'delay' }],
  });
  expectCreated(res, 'the workflow is created');
  expectWireFormat(res.data, 'create response');

  const read = await readWorkflow(api, res.data._id);
  expect(read.status, 'the created workflow reads back').toBe(200);
  expectWireFormat(read.data, 'workflow read back');
});

// A step sent without stepId gets one from the target; slug-style identifiers (stepId among them) follow the slug
// pattern on the wire (RULES.md, wire conventions), whatever the step's name holds.
conformance('WF-10', 'a stepId the target derives from a step name with spaces and punctuation follows the slug pattern', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const names = ['  Send: in-app -- now!  ', '!Wait (1 hour)?'];
  const res = await postWorkflow(api, cleanup, {
    name: `conformance ${workflowId}`,
    workflowId,
    steps: [
      { name: names[0], type: 'in_app' },
      { name: names[1], type: 'delay' },
    ],
  });
  expectCreated(res, 'the workflow with steps named with punctuation and without stepId is created');
  const steps = (res.data?.steps ?? []) as Record<string, unknown>[];
  expect(steps.length, 'the response carries both steps').toBe(2);
  steps.forEach((step, i) => {
    expect(SLUG_PATTERN.test(String(step.stepId)), `the stepId derived from the name ${JSON.stringify(names[i])} follows the slug pattern, got ${JSON.stringify(step.stepId)}`).toBe(true);
  });
});

// A step name with no ASCII letter or digit still gets a slug-pattern stepId (never an empty one).
conformance('WF-10', 'a stepId the target derives from a step name without ASCII letters or digits follows the slug pattern', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const names = ['通知', 'Уведомление ✉'];
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: names.map((name) => ({ name, type: 'in_app' })) });
  expectCreated(res, 'the workflow with steps named without ASCII letters or digits is created');
  const steps = (res.data?.steps ?? []) as Record<string, unknown>[];
  expect(steps.length, 'the response carries both steps').toBe(2);
  steps.forEach((step, i) => {
    expect(SLUG_PATTERN.test(String(step.stepId)), `the stepId derived from the name ${JSON.stringify(names[i])} follows the slug pattern, got ${JSON.stringify(step.stepId)}`).toBe(true);
  });
});
