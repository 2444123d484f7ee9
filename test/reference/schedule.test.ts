import { describe, expect, it } from 'vitest';
import type { FaultName } from '../../reference/index.ts';
import { FieldErrors } from '../../reference/errors.ts';
import { isValidHour, validateSchedule } from '../../reference/schedule.ts';

describe('12-hour schedule hours', () => {
  it.each(['9:00 AM', '09:00 AM', '12:59 PM', '1:00pm', '10:30AM', '11:15 am'])('accepts %s', (h) => expect(isValidHour(h)).toBe(true));
  it.each(['25:00', '13:00 PM', '9:00', '00:30 AM', '12:60 PM', '9:0 AM', ' 9:00 AM', '9:00 XM', '', '21:00 PM'])('rejects %s', (h) =>
    expect(isValidHour(h)).toBe(false),
  );
});

describe('validateSchedule', () => {
  const faithful = { has: () => false };
  const withFault = (fault: FaultName) => ({ has: (f: FaultName) => f === fault });
  const valid = {
    isEnabled: true,
    weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] }, sunday: { isEnabled: false, hours: [] } },
  };
  it('returns a clean copy of a valid schedule', () => {
    const errs = new FieldErrors();
    expect(validateSchedule(errs, valid, faithful)).toEqual(valid);
    expect(errs.any).toBe(false);
  });
  it('names every bad field', () => {
    const errs = new FieldErrors();
    const out = validateSchedule(errs, {
      isEnabled: 'yes',
      weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '25:00', end: '9:00' }] }, funday: { isEnabled: true } },
    }, faithful);
    expect(out).toBeUndefined();
    expect(Object.keys(errs.errors).sort()).toEqual([
      'schedule.isEnabled',
      'schedule.weeklySchedule.funday',
      'schedule.weeklySchedule.monday.hours[0].end',
      'schedule.weeklySchedule.monday.hours[0].start',
    ]);
    expect(errs.errors['schedule.weeklySchedule.monday.hours[0].start']).toEqual({ messages: [expect.any(String)], value: '25:00' });
  });
  it('skips the hour pattern when told to (schedule-24h-accepted fault)', () => {
    const errs = new FieldErrors();
    expect(validateSchedule(errs, { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '13:00', end: '25:00' }] } } }, withFault('schedule-24h-accepted'))).toBeDefined();
  });
});
