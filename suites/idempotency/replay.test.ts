import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { settle } from '../../harness/eventually.ts';
import { expectTriggered, freshRecipients, lastTriggeredAt, lastTriggeredAtAfterRun, subscriberExists, TRIGGER_PATH } from '../../fixtures/trigger/trigger-effects.ts';
import { expectSuccess } from '../../fixtures/idempotency/eight-operations.ts';
import { freshKey, withKey } from '../../fixtures/idempotency/keys.ts';
import { expectCreatedOnce, expectReplayOf, keyedWorkflowCreation } from '../../fixtures/idempotency/replay.ts';

conformance('IDEM-02', 'a repeated keyed workflow creation replays the 201 and creates one workflow', async (ctx) => {
  const { workflowId, first, repeat } = await keyedWorkflowCreation(ctx);
  expectReplayOf(await repeat(), first, 'workflow creation');
  await expectCreatedOnce(ctx, workflowId, first);
});

conformance('IDEM-02', 'a repeated keyed trigger replays the response and runs the workflow once', async ({ api, ids, provision, target }) => {
  const workflow = await provision.workflow();
  const [recipient] = freshRecipients(ids, provision, 1, 'idem-rcpt');
  const body = { name: workflow.workflowId, to: [recipient!] };
  const key = freshKey(ids);

  const first = await api.post(TRIGGER_PATH, body, withKey(key));
  expectSuccess(first, 'the first trigger');
  // Positive control: the run's effects are observable, so their absence after the replay means something.
  await expectTriggered({ api, target }, [recipient!.subscriberId], 'the first keyed trigger');
  const triggeredAt = await lastTriggeredAtAfterRun({ api, target }, workflow);
  const removed = await api.delete(`/v2/subscribers/${recipient!.subscriberId}`);
  expectSuccess(removed, 'removing the recipient the first run created (so a second run would show)');

  const repeat = await api.post(TRIGGER_PATH, body, withKey(key));
  await settle(target.timeouts.settleMs);
  expect(await subscriberExists(api, recipient!.subscriberId), 'a replayed trigger must not run again, yet the recipient object was created anew').toBe(false);
  expect(await lastTriggeredAt(api, workflow), "a replayed trigger must not run again, yet the workflow's lastTriggeredAt changed").toEqual(triggeredAt);
  expectReplayOf(repeat, first, 'trigger');
});

conformance('IDEM-02', 'a repeated keyed preference update replays the response and is not applied again', async ({ api, ids, provision }) => {
  const subscriber = await provision.subscriber();
  const path = `/v2/subscribers/${subscriber.subscriberId}/preferences`;
  const key = freshKey(ids);

  const first = await api.patch(path, { channels: { email: false } }, withKey(key));
  expectSuccess(first, 'the first keyed preference update');
  // Undo the change without a key: a repeat that is applied again would switch email off once more.
  expectSuccess(await api.patch(path, { channels: { email: true } }), 'switching email back on (no key)');

  const repeat = await api.patch(path, { channels: { email: false } }, withKey(key));
  const read = await api.get(path);
  expect(read.status, 'reading the preferences back').toBe(200);
  expect(read.data?.global?.channels?.email, 'a replayed PATCH must not be applied again: global email must stay true').toBe(true);
  expectReplayOf(repeat, first, 'preference update');
});
