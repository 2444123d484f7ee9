// Wire format of the workflow response: ISO-8601 timestamps, non-empty ids, allowed enumeration values (WF-10).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { ISO_8601, ORIGINS, SEVERITIES, STATUSES, STEP_TYPES, expectCreated, postWorkflow, readWorkflow } from '../../fixtures/workflows/workflow-requests.ts';

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
