// A subscriber object in `to` with every field the spec documents for it (TRIG-03): profile strings, `data`, and
// `channels` with `credentials` {webhookUrl, deviceTokens[]} and `integrationIdentifier`. SHOULD-level: each channel
// also carries `providerId`, which the deployed contract (SubscriberChannelDto) requires and the spec does not list.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { TRIGGER_PATH, expectTriggered, freshRecipients } from '../../fixtures/trigger/trigger-effects.ts';

conformance('TRIG-03', 'accepts a subscriber object carrying every documented field, channels with credentials included', async ({ api, provision, ids, target }) => {
  const wf = await provision.workflow();
  const [base] = freshRecipients(ids, provision, 1, 'full');
  const recipient = {
    ...base!,
    lastName: 'Lovelace',
    phone: '+15550100',
    avatar: 'https://example.com/avatar.png',
    locale: 'en_GB',
    timezone: 'Europe/London',
    data: { plan: 'conformance' },
    channels: [
      { providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example.com/conformance' }, integrationIdentifier: ids.slug('slack') },
      { providerId: 'fcm', credentials: { deviceTokens: ['token-1', 'token-2'] } },
    ],
  };
  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [recipient] });
  expect(res.status, `a trigger whose recipient object carries every documented field is accepted with 201, got ${res.status} ${res.text.slice(0, 200)}`).toBe(201);
  expect(res.data).toMatchSchema('TriggerEventResponseDto');
  expect(res.data.status, 'the trigger of an active workflow with steps is processed').toBe('processed');
  await expectTriggered({ api, target }, [recipient.subscriberId], 'a recipient object with every documented field');
}, { level: 'SHOULD' });

// The spec lists `credentials` among a channel's fields without marking it required; the deployed contract requires it.
// Either answer is allowed — 201, or a 4xx naming the field — but never a server error.
conformance('TRIG-03', 'a recipient object with a channel without credentials gets 201 or a 4xx, never a 5xx', async ({ api, provision, ids }) => {
  const wf = await provision.workflow();
  const [recipient] = freshRecipients(ids, provision, 1, 'no-creds');
  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [{ ...recipient!, channels: [{ providerId: 'slack', integrationIdentifier: ids.slug('slack') }] }] });
  expect(res.status === 201 || (res.status >= 400 && res.status < 500), `a channel without credentials is accepted (201) or refused as a client error (4xx), never a server error; got ${res.status} ${res.text.slice(0, 200)}`).toBe(true);
});
