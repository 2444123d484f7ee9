// Workflow-scoped channel preferences: workflowId as _id, identifier or slug changes only that workflow's entry
// (PREF-02), the change is listed as a subscriber override (PREF-07), an unknown workflowId is refused (PREF-05).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import type { Workflow } from '../../fixtures/provision.ts';
import { entryOf, preferencesPath, readPreferences, requireEntry, type Preferences } from '../../fixtures/preferences/preferences-read.ts';

/** What a preference update may change in an entry (timestamps left out: a target may stamp them on read). */
function settingsOf(prefs: Preferences, wf: Workflow): unknown {
  const entry = entryOf(prefs, wf);
  return entry && { enabled: entry.enabled, channels: entry.channels, overrides: entry.overrides ?? [] };
}

const WORKFLOW_ID_FORMS: readonly { label: string; of: (wf: Workflow) => string }[] = [
  { label: 'internal _id', of: (wf) => wf._id },
  { label: 'identifier (workflowId)', of: (wf) => wf.workflowId },
  { label: 'slug', of: (wf) => wf.slug },
];

for (const form of WORKFLOW_ID_FORMS) {
  conformance('PREF-02', `updates only the named workflow's entry when workflowId is its ${form.label}`, async ({ api, provision }) => {
    const target = await provision.workflow();
    const others = [await provision.workflow(), await provision.workflow()];
    const subscriber = await provision.subscriber();
    const before = await readPreferences(api, subscriber.subscriberId);
    const email = !(requireEntry(before, target, 'before the update').channels.email ?? true);

    const res = await api.patch(preferencesPath(subscriber.subscriberId), { workflowId: form.of(target), channels: { email } });
    expect(res.status, `a workflow preference update with workflowId as ${form.label} (${form.of(target)}) is answered 200`).toBe(200);
    expect(res.data).toMatchSchema('SubscriberPreferencesDto');
    expectOnlyEntryChanged(res.data as Preferences, 'in the response');
    expectOnlyEntryChanged(await readPreferences(api, subscriber.subscriberId), 'read back');

    function expectOnlyEntryChanged(after: Preferences, where: string): void {
      expect(requireEntry(after, target, where).channels.email, `${where}: the named workflow's channels.email takes the new value`).toBe(email);
      for (const other of others) {
        requireEntry(before, other, 'before the update'); // an absent entry on both sides would compare equal and prove nothing
        expect(settingsOf(after, other), `${where}: the preferences of another workflow (${other.workflowId}) do not change`).toEqual(settingsOf(before, other));
      }
      expect(after.global.channels, `${where}: global channels do not change on a workflow-scoped update`).toEqual(before.global.channels);
    }
  });
}

conformance('PREF-07', 'lists each subscriber-level workflow change in that workflow\'s overrides with source subscriber, the second channel beside the first', async ({ api, provision }) => {
  const wf = await provision.workflow();
  const subscriber = await provision.subscriber();
  const first = await api.patch(preferencesPath(subscriber.subscriberId), { workflowId: wf.workflowId, channels: { email: false } });
  expect(first.status, 'the workflow preference update is answered 200').toBe(200);
  // a second change, of another channel, once the workflow already lists an override
  const res = await api.patch(preferencesPath(subscriber.subscriberId), { workflowId: wf.workflowId, channels: { sms: false } });
  expect(res.status, 'the second workflow preference update is answered 200').toBe(200);
  for (const [where, prefs] of [['in the first response', first.data as Preferences], ['in the second response', res.data as Preferences], ['read back', await readPreferences(api, subscriber.subscriberId)]] as const) {
    const overrides = requireEntry(prefs, wf, where).overrides ?? [];
    expect(overrides, `${where}: the workflow's overrides name channel email with source "subscriber"`).toContainEqual(expect.objectContaining({ channel: 'email', source: 'subscriber' }));
    if (where !== 'in the first response') expect(overrides, `${where}: the workflow's overrides name channel sms, changed second, with source "subscriber"`).toContainEqual(expect.objectContaining({ channel: 'sms', source: 'subscriber' }));
  }
});

conformance('PREF-05', 'refuses a workflow preference update naming an unknown workflowId with 404 or 400', async ({ api, provision, ids }) => {
  const subscriber = await provision.subscriber();
  const res = await api.patch(preferencesPath(subscriber.subscriberId), { workflowId: ids.slug('no-such-wf'), channels: { email: false } });
  expect([404, 400], `an unknown workflowId gets 404 (or 400); got ${res.status}`).toContain(res.status);
});
