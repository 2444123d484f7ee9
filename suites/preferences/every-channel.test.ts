// PREF-01 and PREF-02 for each of the six channels the spec lists (`email`, `sms`, `in_app`, `push`, `chat`, `tool`):
// an update of one channel changes that channel and no other, globally and in the named workflow's entry.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { preferencesPath, readPreferences, requireEntry } from '../../fixtures/preferences/preferences-read.ts';

const CHANNELS = ['email', 'sms', 'in_app', 'push', 'chat', 'tool'] as const;

for (const channel of CHANNELS) {
  conformance('PREF-01', `updates the global \`${channel}\` channel alone when no workflowId is given`, async ({ api, provision }) => {
    const subscriber = await provision.subscriber();
    const before = await readPreferences(api, subscriber.subscriberId);
    const value = !(before.global.channels[channel] ?? true);
    const res = await api.patch(preferencesPath(subscriber.subscriberId), { channels: { [channel]: value } });
    expect(res.status, `a global update of channels.${channel} is answered 200`).toBe(200);
    const expected = { ...before.global.channels, [channel]: value };
    expect(res.data.global.channels, `the response's global.channels has ${channel}: ${value} and every other channel as before`).toEqual(expected);
    expect((await readPreferences(api, subscriber.subscriberId)).global.channels, `read back, global.channels has ${channel}: ${value} and every other channel as before`).toEqual(expected);
  });
}

conformance('PREF-02', 'updates each of the six channels in the named workflow\'s entry', async ({ api, provision }) => {
  const wf = await provision.workflow();
  const subscriber = await provision.subscriber();
  for (const channel of CHANNELS) {
    const before = requireEntry(await readPreferences(api, subscriber.subscriberId), wf, 'before the update');
    const value = !(before.channels[channel] ?? true);
    const res = await api.patch(preferencesPath(subscriber.subscriberId), { workflowId: wf.workflowId, channels: { [channel]: value } });
    expect(res.status, `a workflow update of channels.${channel} is answered 200`).toBe(200);
    const after = requireEntry(await readPreferences(api, subscriber.subscriberId), wf, 'read back');
    expect(after.channels, `read back, the workflow's channels have ${channel}: ${value} and every other channel as before`).toEqual({ ...before.channels, [channel]: value });
  }
});
