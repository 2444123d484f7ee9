// Wire format of the workflow response: ISO-8601 timestamps, non-empty ids, allowed enumeration values (WF-10).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { ISO_8601, ORIGINS, SEVERITIES, SLUG_PATTERN, STATUSES, STEP_TYPES, expectCreated, postWorkflow, readWorkflow } from '../../fixtures/workflows/workflow-requests.ts';

const TIMESTAMPS = ['createdAt', 'updatedAt', 'lastPublishedAt', 'lastTriggeredAt'] as const;

function expectWireFormat(wf: Record<string, any>, source: string): void {
  for (const field of TIMESTAMPS) {
    const value = wf[field];
    if (value === null || (value === undefined && field.startsWith('last'))) continue;
    expect(value, `${source}: \`${field}\` is an ISO-8601 timestamp string`).toBeTypeOf('string');
    expect(ISO_8601.test(value) && !Number.isNaN(Date.parse(value)), `${source}: \`${field}\` ${JSON.stringify(value)} is an ISO-8601 timestamp`).toBe(true);
  }
  for (const field of ['_id', 'slug'] as const) {
    expect(typeof wf[field] === 'string' && wf[field].length > 0, `${source}: \`${field}\` is a non-empty string, got ${JSON.stringify(wf[field])}`).toBe(true);
  }
  expect(ORIGINS, `${source}: \`origin\` is one of ${ORIGINS.join(', ')}`).toContain(wf.origin);
  expect(STATUSES, `${source}: \`status\` is one of ${STATUSES.join(', ')}`).toContain(wf.status);
  expect(SEVERITIES, `${source}: \`severity\` is one of ${SEVERITIES.join(', ')}`).toContain(wf.severity);
  for (const step of (wf.steps ?? []) as Record<string, unknown>[]) {
    expect(STEP_TYPES as readonly unknown[], `${source}: step type is one of the eleven`).toContain(step.type);
    for (const field of ['_id', 'slug'] as const) {
      const value = step[field];
      expect(typeof value === 'string' && value.length > 0, `${source}: step \`${field}\` is a non-empty string, got ${JSON.stringify(value)}`).toBe(true);
    }
  }
}

conformance('WF-10', 'the workflow response carries ISO-8601 timestamps, non-empty _id and slug, and allowed enumeration values', async ({ api, ids, cleanup }) => {
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

conformance('WF-10', 'a workflow created without severity reports an allowed severity value', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [] });
  expectCreated(res, 'the workflow is created');
  expect(SEVERITIES, '`severity` is required in the response and one of the allowed values even when not sent').toContain(res.data.severity);
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

conformance('WF-10', 'a workflow sent with a severity outside the enumeration is rejected, or answered with an allowed severity', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, severity: 'urgent', steps: [] });
  if (res.status >= 200 && res.status < 300) {
    expect(SEVERITIES, `an accepted workflow's \`severity\` is one of ${SEVERITIES.join(', ')}, got ${JSON.stringify(res.data?.severity)}`).toContain(res.data?.severity);
  } else {
    expect(res.status, `severity "urgent" is outside the enumeration: a rejection is a client error (4xx), got ${res.status}`).toBeGreaterThanOrEqual(400);
    expect(res.status, `severity "urgent": a client error, not a server error`).toBeLessThan(500);
  }
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
