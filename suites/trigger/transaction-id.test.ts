// transactionId: echoed, and a repeat (sent after the first completed) is ignored — TRIG-04.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { TRIGGER_PATH, expectNothingTriggered, expectTriggered, freshRecipients, lastTriggeredAtAfterRun } from '../../fixtures/trigger/trigger-effects.ts';

conformance('TRIG-04', 'echoes a given transactionId in the trigger response', async ({ api, provision, ids }) => {
  const wf = await provision.workflow();
  const subscriber = await provision.subscriber();
  const transactionId = ids.slug('txn');
  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [subscriber.subscriberId], transactionId });
  expect(res.status, 'a trigger with a transactionId is accepted with 201').toBe(201);
  expect(res.data.transactionId, 'the response carries the transactionId that was sent').toBe(transactionId);
});

conformance('TRIG-04', 'ignores a trigger repeating an earlier transactionId: no second run', async ({ api, provision, ids, target }) => {
  const wf = await provision.workflow();
  const transactionId = ids.slug('txn');
  const [first, second] = freshRecipients(ids, provision, 2);

  const res1 = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [first], transactionId });
  expect(res1.status, 'the first trigger with a fresh transactionId is accepted with 201').toBe(201);
  expect(res1.data.status, 'the first trigger is processed').toBe('processed');
  // positive control, and the first run must be complete before the repeat is sent (sequential, not concurrent)
  await expectTriggered({ api, target }, [first!.subscriberId], 'the first trigger (positive control)');
  const before = await lastTriggeredAtAfterRun({ api, target }, wf);

  const res2 = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [second], transactionId });
  expect(res2.status, 'a repeated transactionId is ignored, not an error of the service (never a 5xx)').toBeLessThan(500);
  await expectNothingTriggered({ api, target }, { wf, before, subscriberIds: [second!.subscriberId], why: 'a trigger repeating an earlier transactionId' });
});
