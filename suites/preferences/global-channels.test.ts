// Global channel preferences: updated without workflowId (PREF-01); non-boolean values rejected (PREF-06);
// unknown subscriber (PREF-05).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { preferencesPath, readPreferences } from '../../fixtures/preferences/preferences-read.ts';
import { TRIGGER_PATH } from '../../fixtures/trigger/trigger-effects.ts';

conformance('PREF-01', 'updates global channel preferences when no workflowId is given', async ({ api, provision }) => {
  const subscriber = await provision.subscriber();
  const before = await readPreferences(api, subscriber.subscriberId);
  const wanted = { email: !(before.global.channels.email ?? true), sms: !(before.global.channels.sms ?? true) };

  const res = await api.patch(preferencesPath(subscriber.subscriberId), { channels: wanted });
  expect(res.status, 'a global channel update is answered 200').toBe(200);
  expect({ method: 'PATCH', path: preferencesPath(subscriber.subscriberId), status: res.status, body: res.json }).toMatchResponseSchema();
  expect(res.data.global.channels, 'the response\'s global.channels reflects the change').toMatchObject(wanted);
  const after = await readPreferences(api, subscriber.subscriberId);
  expect(after.global.channels, 'read back, global.channels keeps the change').toMatchObject(wanted);
});

const NON_BOOLEANS: readonly { label: string; value: unknown }[] = [
  { label: 'the string "false"', value: 'false' },
  { label: 'the number 0', value: 0 },
  { label: 'the string "yes"', value: 'yes' },
];

for (const { label, value } of NON_BOOLEANS) {
  conformance('PREF-06', `rejects a channel value of ${label} with 4xx`, async ({ api, provision }) => {
    const subscriber = await provision.subscriber();
    const before = await readPreferences(api, subscriber.subscriberId);
    const res = await api.patch(preferencesPath(subscriber.subscriberId), { channels: { email: value } });
    expect(res.status, `channels.email = ${JSON.stringify(value)} (not a boolean) is rejected with a 4xx`).toBeGreaterThanOrEqual(400);
    expect(res.status, `channels.email = ${JSON.stringify(value)} is rejected with a 4xx, not a 5xx`).toBeLessThan(500);
    const after = await readPreferences(api, subscriber.subscriberId);
    expect(after.global.channels, 'a rejected update leaves global.channels as they were').toEqual(before.global.channels);
  });
}

conformance('PREF-05', 'answers 404 to a preference update of an unknown subscriber', async ({ api, ids, provision }) => {
  const subscriberId = ids.slug('no-such-sub');
  provision.forgetSubscriber(subscriberId); // in case the target wrongly creates it
  const res = await api.patch(preferencesPath(subscriberId), { channels: { email: false } });
  expect(res.status, 'an unknown subscriber gets 404').toBe(404);
});

// Preferences are stored per subscriber: a trigger that names an existing subscriber as an object updates its profile,
// never resets what was stored for it.
conformance('PREF-01', 'a trigger naming an existing subscriber as an object keeps its stored global channel preferences', async ({ api, provision }) => {
  const wf = await provision.workflow();
  const subscriber = await provision.subscriber();
  const before = await readPreferences(api, subscriber.subscriberId);
  const email = !(before.global.channels.email ?? true);
  const stored = await api.patch(preferencesPath(subscriber.subscriberId), { channels: { email } });
  expect(stored.status, 'a global channel update is answered 200').toBe(200);

  const res = await api.post(TRIGGER_PATH, { name: wf.workflowId, to: [{ subscriberId: subscriber.subscriberId, firstName: 'Ada' }] });
  expect(res.status, `a trigger naming the subscriber as an object is accepted with 201, got ${res.status}`).toBe(201);
  const sms = !(before.global.channels.sms ?? true);
  const next = await api.patch(preferencesPath(subscriber.subscriberId), { channels: { sms } });
  expect(next.status, 'the next global channel update is answered 200').toBe(200);
  expect(next.data.global.channels, `after the trigger, global.channels still holds email: ${email} stored before it, beside the new sms: ${sms}`).toMatchObject({ email, sms });
});
