// The trigger response and its result status: TRIG-01 (processed), TRIG-07 (unknown workflow),
// TRIG-08 (inactive / no steps), TRIG-10 (empty `to`).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { TRIGGER_PATH } from '../../fixtures/trigger/trigger-effects.ts';

const isSuccess = (status: number) => status >= 200 && status < 300;

conformance('TRIG-01', 'answers 201 with an acknowledged, processed trigger response for an active workflow with steps', async ({ api, provision }) => {
  const wf = await provision.workflow();
  const subscriber = await provision.subscriber();
  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [subscriber.subscriberId], payload: { greeting: 'hello' } });
  expect(res.status, 'a valid trigger is answered 201').toBe(201);
  expect({ method: 'POST', path: TRIGGER_PATH, status: res.status, body: res.json }).toMatchResponseSchema();
  expect(res.data).toMatchSchema('TriggerEventResponseDto');
  expect(res.data.acknowledged, 'a valid trigger is acknowledged (acknowledged: true)').toBe(true);
  expect(res.data.status, 'the result status for an active workflow with steps').toBe('processed');
  expect(res.data.transactionId, 'the trigger response carries the run\'s transactionId as a string').toBeTypeOf('string');
  expect(res.data.transactionId.length, 'transactionId is not empty').toBeGreaterThan(0);
});

conformance('TRIG-07', 'does not process a trigger naming an unknown workflow', async ({ api, ids, provision }) => {
  const subscriber = await provision.subscriber();
  const res = await api.post(TRIGGER_PATH, { name: ids.slug('no-such-wf'), to: [subscriber.subscriberId] });
  expect(res.status, 'an unknown workflow is answered with a 4xx or a non-processed trigger response, never a 5xx').toBeLessThan(500);
  if (isSuccess(res.status)) {
    expect(res.data).toMatchSchema('TriggerEventResponseDto');
    const processed = res.data.acknowledged === true && res.data.status === 'processed';
    expect(processed, `a trigger for an unknown workflow is not processed; got acknowledged=${res.data.acknowledged}, status=${res.data.status}`).toBe(false);
  } else {
    expect(res.status, 'an unknown workflow is rejected with a 4xx').toBeGreaterThanOrEqual(400);
  }
});

conformance('TRIG-08', 'answers trigger_not_active for an inactive workflow', async ({ api, provision }) => {
  const wf = await provision.workflow({ active: false });
  const subscriber = await provision.subscriber();
  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [subscriber.subscriberId] });
  expect(res.status, 'a trigger for an inactive workflow is answered (not rejected, not 5xx)').toBeLessThan(300);
  expect(res.data).toMatchSchema('TriggerEventResponseDto');
  expect(res.data.status, 'the result status for an inactive workflow').toBe('trigger_not_active');
});

conformance('TRIG-08', 'answers no_workflow_steps_defined for an active workflow without steps', async ({ api, provision }) => {
  const wf = await provision.workflow({ active: true, steps: [] });
  const subscriber = await provision.subscriber();
  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [subscriber.subscriberId] });
  expect(res.status, 'a trigger for a workflow without steps is answered (not rejected, not 5xx)').toBeLessThan(300);
  expect(res.data).toMatchSchema('TriggerEventResponseDto');
  expect(res.data.status, 'the result status for a workflow with no steps').toBe('no_workflow_steps_defined');
});

conformance('TRIG-10', 'rejects an empty `to` or answers invalid_recipients, never processed', async ({ api, provision }) => {
  const wf = await provision.workflow();
  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [] });
  expect(res.status, 'an empty `to` is rejected with a 4xx or answered, never a 5xx').toBeLessThan(500);
  if (isSuccess(res.status)) {
    expect(res.data).toMatchSchema('TriggerEventResponseDto');
    expect(res.data.status, 'a trigger with an empty `to` is answered invalid_recipients (never processed)').toBe('invalid_recipients');
  } else {
    expect(res.status, 'an empty `to` is rejected with a 4xx').toBeGreaterThanOrEqual(400);
  }
});
