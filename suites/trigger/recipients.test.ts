// Recipients of a trigger: the 100-recipient cap (TRIG-02) and mixed id/object recipients (TRIG-03).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { TRIGGER_PATH, expectNothingTriggered, expectTriggered, freshRecipients, lastTriggeredAt, RECIPIENT_FORMS } from '../../fixtures/trigger/trigger-effects.ts';
import { spareEnvironment } from '../../fixtures/environments/spare-environment.ts';

const MAX_RECIPIENTS = 100;

conformance('TRIG-02', 'rejects 101 recipients and triggers nothing', async (ctx) => {
  const { ids, target } = ctx;
  const { api, provision } = spareEnvironment(ctx);
  const wf = await provision.workflow();
  const before = await lastTriggeredAt(api, wf);
  const recipients = freshRecipients(ids, provision, MAX_RECIPIENTS + 1);

  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: recipients });
  expect(res.status, `a trigger with ${MAX_RECIPIENTS + 1} recipients is rejected with a 4xx`).toBeGreaterThanOrEqual(400);
  expect(res.status, `a trigger with ${MAX_RECIPIENTS + 1} recipients is rejected with a 4xx (not a 5xx)`).toBeLessThan(500);
  await expectNothingTriggered({ api, target }, { wf, before, subscriberIds: recipients.map((r) => r.subscriberId), why: `a rejected ${MAX_RECIPIENTS + 1}-recipient trigger` });

  // positive control: the same kind of recipient object IS created by an accepted trigger of this workflow
  const [control] = freshRecipients(ids, provision, 1, 'control');
  const ok = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [control] });
  expect(ok.status, 'positive control: a one-recipient trigger of the same workflow is accepted').toBe(201);
  await expectTriggered({ api, target }, [control!.subscriberId], 'positive control');
});

// One set of subscribers for every form: the first trigger, of objects, creates them, so that the id strings of the
// next two name existing subscribers (a fresh 100 per form would only multiply the reads and removals).
conformance('TRIG-02', 'accepts exactly 100 recipients as objects, as subscriber-id strings and mixed, and runs for each of them', async (ctx) => {
  const { ids, target } = ctx;
  const { api, provision } = spareEnvironment(ctx);
  const wf = await provision.workflow();
  const recipients = freshRecipients(ids, provision, MAX_RECIPIENTS);
  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: recipients });
  expect(res.status, `a trigger with exactly ${MAX_RECIPIENTS} recipients is accepted with 201`).toBe(201);
  expect(res.data).toMatchSchema('TriggerEventResponseDto');
  expect(res.data.acknowledged, `a ${MAX_RECIPIENTS}-recipient trigger is acknowledged`).toBe(true);
  expect(res.data.status, `a ${MAX_RECIPIENTS}-recipient trigger of an active workflow with steps is processed`).toBe('processed');
  await expectTriggered({ api, target }, recipients.map((r) => r.subscriberId), `an accepted ${MAX_RECIPIENTS}-recipient trigger`);
  for (const form of RECIPIENT_FORMS) {
    const again = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: form.write(recipients) });
    expect(again.status, `a trigger with exactly ${MAX_RECIPIENTS} recipients given as ${form.label} is accepted with 201`).toBe(201);
    expect(again.data.acknowledged, `a ${MAX_RECIPIENTS}-recipient trigger of ${form.label} is acknowledged`).toBe(true);
    expect(again.data.status, `a ${MAX_RECIPIENTS}-recipient trigger of ${form.label} to an active workflow with steps is processed`).toBe('processed');
  }
});

conformance('TRIG-03', 'accepts subscriber-id strings and subscriber objects mixed in one `to`', async ({ api, provision, ids, target }) => {
  const wf = await provision.workflow();
  const existing = await provision.subscriber();
  const objects = freshRecipients(ids, provision, 2, 'obj');
  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [existing.subscriberId, objects[0], objects[1]] });
  expect(res.status, 'a trigger whose `to` mixes a subscriberId string and subscriber objects is accepted with 201').toBe(201);
  expect(res.data).toMatchSchema('TriggerEventResponseDto');
  expect(res.data.acknowledged, 'the mixed-recipient trigger is acknowledged').toBe(true);
  expect(res.data.status, 'the mixed-recipient trigger of an active workflow with steps is processed').toBe('processed');
  await expectTriggered({ api, target }, objects.map((o) => o.subscriberId), 'the subscriber objects among mixed recipients');
});

conformance('TRIG-03', 'accepts a `to` made only of subscriber objects', async ({ api, provision, ids, target }) => {
  const wf = await provision.workflow();
  const objects = freshRecipients(ids, provision, 1, 'obj');
  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: objects });
  expect(res.status, 'a trigger whose `to` is a subscriber object is accepted with 201').toBe(201);
  expect(res.data.status, 'the object-recipient trigger is processed').toBe('processed');
  await expectTriggered({ api, target }, objects.map((o) => o.subscriberId), 'a subscriber object recipient');
});
