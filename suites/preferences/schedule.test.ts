// Delivery schedule: a valid 12-hour schedule is stored, echoed and kept by later updates (PREF-03); other hour
// forms are rejected and change nothing, not even the channels sent alongside (PREF-04).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { preferencesPath, readPreferences, weeklySchedule } from '../../fixtures/preferences/preferences-read.ts';

const VALID_SCHEDULE = { isEnabled: true, weeklySchedule: weeklySchedule([{ start: '09:00 AM', end: '05:30 PM' }]) };

conformance('PREF-03', 'stores a valid 12-hour weekly schedule and echoes it under global.schedule', async ({ api, provision }) => {
  const subscriber = await provision.subscriber();
  const res = await api.patch(preferencesPath(subscriber.subscriberId), { schedule: VALID_SCHEDULE });
  expect(res.status, 'a valid schedule update is answered 200').toBe(200);
  expect(res.data).toMatchSchema('SubscriberPreferencesDto');
  expect(res.data.global?.schedule, 'the response echoes the schedule under global.schedule').toMatchObject(VALID_SCHEDULE);
  const after = await readPreferences(api, subscriber.subscriberId);
  expect(after.global.schedule, 'read back, global.schedule is the stored schedule').toMatchObject(VALID_SCHEDULE);
});

conformance('PREF-03', 'keeps the stored schedule when a later update sends only channels', async ({ api, provision, notVerified }) => {
  const subscriber = await provision.subscriber();
  const setup = await api.patch(preferencesPath(subscriber.subscriberId), { schedule: VALID_SCHEDULE });
  if (setup.status !== 200) notVerified(`a valid schedule could not be stored first (PATCH answered ${setup.status})`);
  const before = await readPreferences(api, subscriber.subscriberId);
  const res = await api.patch(preferencesPath(subscriber.subscriberId), { channels: { email: !(before.global.channels.email ?? true) } });
  expect(res.status, 'a channels-only update is answered 200').toBe(200);
  expect(res.data.global?.schedule, 'an update that does not send schedule echoes the stored one under global.schedule').toMatchObject(VALID_SCHEDULE);
  const after = await readPreferences(api, subscriber.subscriberId);
  expect(after.global.schedule, 'read back, the schedule is still stored after the channels-only update').toMatchObject(VALID_SCHEDULE);
});

for (const badHour of ['25:00', '13:00 PM', '9:00']) {
  conformance('PREF-04', `rejects schedule hours "${badHour}" with 4xx and changes nothing`, async ({ api, provision, notVerified }) => {
    const subscriber = await provision.subscriber();
    const setup = await api.patch(preferencesPath(subscriber.subscriberId), { schedule: VALID_SCHEDULE });
    if (setup.status !== 200) notVerified(`a valid schedule could not be stored first (PREF-03: PATCH answered ${setup.status}), so "changes nothing" cannot be observed`);
    const before = await readPreferences(api, subscriber.subscriberId);

    const bad = { isEnabled: true, weeklySchedule: weeklySchedule([{ start: badHour, end: '05:00 PM' }]) };
    const channels = { email: !(before.global.channels.email ?? true) };
    const res = await api.patch(preferencesPath(subscriber.subscriberId), { channels, schedule: bad });
    expect(res.status, `schedule hours "${badHour}" (not HH:MM AM/PM) are rejected with a 4xx`).toBeGreaterThanOrEqual(400);
    expect(res.status, `schedule hours "${badHour}" are rejected with a 4xx, not a 5xx`).toBeLessThan(500);

    const after = await readPreferences(api, subscriber.subscriberId);
    expect(after.global.schedule, 'a rejected update leaves the stored schedule unchanged').toEqual(before.global.schedule);
    expect(after.global.channels, 'a rejected update does not apply the channels sent in the same request').toEqual(before.global.channels);
  });
}
