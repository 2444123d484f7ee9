// What the spec leaves open ("not shown"), judged against the deployed service at SHOULD (WF-11): ISO-8601 timestamps
// and the deployed origin/status/severity and override-source values. A MUST rule never fails on these.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { preferencesPath, readPreferences, requireEntry, type Preferences } from '../../fixtures/preferences/preferences-read.ts';
import { TRIGGER_PATH, expectTriggered, freshRecipients, lastTriggeredAtAfterRun } from '../../fixtures/trigger/trigger-effects.ts';
import { ORIGINS, OVERRIDE_SOURCES, SEVERITIES, STATUSES, WORKFLOW_TIMESTAMPS, expectCreated, isIso8601, postWorkflow, readWorkflow } from '../../fixtures/workflows/workflow-requests.ts';

function expectDeployedForm(wf: Record<string, any>, source: string): void {
  for (const field of WORKFLOW_TIMESTAMPS) {
    const value = wf[field];
    if (value === null || (value === undefined && field.startsWith('last'))) continue;
    expect(isIso8601(value), `${source}: \`${field}\` ${JSON.stringify(value)} is ISO-8601, as the deployed service writes it`).toBe(true);
  }
  expect(ORIGINS, `${source}: \`origin\` is one of the deployed values ${ORIGINS.join(', ')}`).toContain(wf.origin);
  expect(STATUSES, `${source}: \`status\` is one of the deployed values ${STATUSES.join(', ')}`).toContain(wf.status);
  expect(SEVERITIES, `${source}: \`severity\` is one of the deployed values ${SEVERITIES.join(', ')}`).toContain(wf.severity);
}

conformance('WF-11', 'an active and an inactive workflow, created, triggered and read back, carry ISO-8601 timestamps and the deployed origin, status and severity values', async ({ api, ids, cleanup, provision, target }) => {
  for (const active of [true, false]) {
    const workflowId = ids.slug('wf');
    const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, active, severity: 'low', steps: [{ name: 'In-app', type: 'in_app' }] });
    expectCreated(res, 'the workflow is created');
    expectDeployedForm(res.data, `create response (active: ${active})`);
    if (active) {
      const [recipient] = freshRecipients(ids, provision, 1);
      const run = await api.post(TRIGGER_PATH, { name: workflowId, to: [recipient] });
      expect(run.status, 'the workflow is triggered once, so lastTriggeredAt is set').toBe(201);
      await expectTriggered({ api, target }, [recipient!.subscriberId], 'the trigger ran');
      await lastTriggeredAtAfterRun({ api, target }, res.data);
    }
    const read = await readWorkflow(api, res.data._id);
    expect(read.status, 'the created workflow reads back').toBe(200);
    expectDeployedForm(read.data, `workflow read back (active: ${active})`);
  }
});

conformance('WF-11', 'a workflow created without severity reports one of the deployed severity values', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [] });
  expectCreated(res, 'the workflow is created');
  expect(SEVERITIES, `\`severity\` is one of the deployed values even when not sent, got ${JSON.stringify(res.data.severity)}`).toContain(res.data.severity);
});

conformance('WF-11', 'a workflow sent with a severity outside the deployed values is rejected, or answered with a deployed severity', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, severity: 'urgent', steps: [] });
  if (res.status >= 200 && res.status < 300) {
    expect(SEVERITIES, `an accepted workflow's \`severity\` is one of ${SEVERITIES.join(', ')}, got ${JSON.stringify(res.data?.severity)}`).toContain(res.data?.severity);
  } else {
    expect(res.status, `severity "urgent" is outside the deployed values: a rejection is a client error (4xx), got ${res.status}`).toBeGreaterThanOrEqual(400);
    expect(res.status, 'severity "urgent": a client error, not a server error').toBeLessThan(500);
  }
});

conformance('WF-11', 'subscriber preferences carry ISO-8601 timestamps and the deployed override source values', async ({ api, provision }) => {
  const wf = await provision.workflow();
  const subscriber = await provision.subscriber();
  const res = await api.patch(preferencesPath(subscriber.subscriberId), { workflowId: wf.workflowId, channels: { email: false } });
  expect(res.status, 'the workflow preference update is answered 200').toBe(200);
  for (const [where, prefs] of [['in the response', res.data as Preferences], ['read back', await readPreferences(api, subscriber.subscriberId)]] as const) {
    const entry = requireEntry(prefs, wf, where);
    for (const [field, value] of [['updatedAt', entry.updatedAt], ['workflow.updatedAt', entry.workflow?.updatedAt]] as const) {
      if (value !== undefined) expect(isIso8601(value), `${where}: the entry's \`${field}\` ${JSON.stringify(value)} is ISO-8601, as the deployed service writes it`).toBe(true);
    }
    for (const override of entry.overrides ?? []) {
      expect(OVERRIDE_SOURCES, `${where}: override \`source\` is one of the deployed values ${OVERRIDE_SOURCES.join(', ')}`).toContain(override.source);
    }
  }
});
