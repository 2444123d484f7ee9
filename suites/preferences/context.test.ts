// PREF-08: the documented `context` (a map of string keys to string values) is accepted beside `channels`, `workflowId`
// and `schedule`, with hard values among its keys and values, and the update it travels with is applied.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { preferencesPath, readPreferences, requireEntry, weeklySchedule } from '../../fixtures/preferences/preferences-read.ts';

const CONTEXTS: readonly { label: string; context: Record<string, string> }[] = [
  { label: 'one key', context: { tenant: 'acme' } },
  { label: 'several keys in mixed case', context: { Tenant: 'Acme', region: 'EU-West', 'app.Env': 'prod' } },
  { label: 'an empty string value', context: { tenant: '' } },
  { label: 'no key (the empty map)', context: {} },
];

for (const { label, context } of CONTEXTS) {
  conformance('PREF-08', `accepts a context with ${label} beside global channels and applies the channels`, async ({ api, provision }) => {
    const subscriber = await provision.subscriber();
    const before = await readPreferences(api, subscriber.subscriberId);
    const email = !(before.global.channels.email ?? true);
    const res = await api.patch(preferencesPath(subscriber.subscriberId), { channels: { email }, context });
    expect(res.status, `a global update carrying context ${JSON.stringify(context)} is answered 200`).toBe(200);
    expect((await readPreferences(api, subscriber.subscriberId)).global.channels.email, 'read back, the channels sent beside context are applied').toBe(email);
  });
}

conformance('PREF-08', 'accepts a context beside workflowId, channels and schedule, and applies the update', async ({ api, provision }) => {
  const wf = await provision.workflow();
  const subscriber = await provision.subscriber();
  const before = requireEntry(await readPreferences(api, subscriber.subscriberId), wf, 'before the update');
  const email = !(before.channels.email ?? true);
  const res = await api.patch(preferencesPath(subscriber.subscriberId), { workflowId: wf.workflowId, channels: { email }, context: { tenant: 'acme', region: 'eu' } });
  expect(res.status, 'a workflow update carrying context is answered 200').toBe(200);
  expect(requireEntry(await readPreferences(api, subscriber.subscriberId), wf, 'read back').channels.email, 'read back, the workflow channel sent beside context is applied').toBe(email);

  const schedule = { isEnabled: true, weeklySchedule: weeklySchedule([{ start: '09:00 AM', end: '05:00 PM' }]) };
  const withSchedule = await api.patch(preferencesPath(subscriber.subscriberId), { schedule, context: { tenant: 'acme' } });
  expect(withSchedule.status, 'a schedule update carrying context is answered 200').toBe(200);
  expect((await readPreferences(api, subscriber.subscriberId)).global.schedule, 'read back, the schedule sent beside context is stored').toMatchObject(schedule);
});
