// Trigger fields sent in every documented form: `overrides.channels` naming each channel (TRIG-09), and a recipient
// object whose channels have the documented shape — credentials {webhookUrl, deviceTokens[]} and integrationIdentifier,
// no `providerId`, which the spec does not list (TRIG-03).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { TRIGGER_PATH, expectTriggered, freshRecipients } from '../../fixtures/trigger/trigger-effects.ts';

const CHANNELS = ['email', 'sms', 'in_app', 'push', 'chat', 'tool'] as const;

conformance('TRIG-09', 'accepts `overrides.channels` naming each of the six channels', async ({ api, provision }) => {
  const wf = await provision.workflow();
  const subscriber = await provision.subscriber();
  for (const channel of CHANNELS) {
    const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [subscriber.subscriberId], overrides: { channels: { [channel]: {} } } });
    expect(res.status, `a trigger whose overrides.channels names ${channel} is accepted with 201, got ${res.status} ${res.text.slice(0, 200)}`).toBe(201);
    expect(res.data.status, `a trigger whose overrides.channels names ${channel} is processed`).toBe('processed');
  }
  const all = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [subscriber.subscriberId], overrides: { channels: Object.fromEntries(CHANNELS.map((c) => [c, {}])) } });
  expect(all.status, `a trigger whose overrides.channels names all six channels at once is accepted with 201, got ${all.status}`).toBe(201);
});

conformance('TRIG-03', 'accepts a recipient object whose channels have the documented shape, without providerId', async ({ api, provision, ids, target }) => {
  const wf = await provision.workflow();
  const [base] = freshRecipients(ids, provision, 1, 'chan');
  const recipient = {
    ...base!,
    channels: [
      { credentials: { webhookUrl: 'https://hooks.example.com/conformance' }, integrationIdentifier: ids.slug('chat') },
      { credentials: { deviceTokens: ['token-1', 'token-2'] } },
      { credentials: { deviceTokens: [] } },
    ],
  };
  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [recipient] });
  expect(res.status, `a recipient whose channels are in the spec's shape (no providerId: the spec does not list it) is accepted with 201, got ${res.status} ${res.text.slice(0, 200)}`).toBe(201);
  expect(res.data.status, 'the trigger of an active workflow with steps is processed').toBe('processed');
  await expectTriggered({ api, target }, [recipient.subscriberId], 'a recipient object with channels in the documented shape');
});
