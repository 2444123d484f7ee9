// Subscriber delivery schedule validation (12-hour `HH:MM AM|PM` hours, per weekday).
import type { App } from './context.ts';
import type { FieldErrors } from './errors.ts';
import type { Schedule } from './store.ts';
import { isPlainObject } from './util.ts';

export const HOUR_PATTERN = /^(0?[1-9]|1[0-2]):[0-5][0-9]\s?(AM|PM)$/i;
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

export function isValidHour(s: unknown): boolean {
  return typeof s === 'string' && HOUR_PATTERN.test(s);
}

/** Validates the whole schedule into `errs`; returns a clean copy when it is valid. */
export function validateSchedule(errs: FieldErrors, value: unknown, app: Pick<App, 'has'>, field = 'schedule'): Schedule | undefined {
  if (!isPlainObject(value)) {
    errs.add(field, 'schedule must be an object', value);
    return undefined;
  }
  const before = Object.keys(errs.errors).length;
  // why: no field of the request bodies is required beyond those the spec marks (RULES, wire conventions)
  if (value.isEnabled !== undefined && typeof value.isEnabled !== 'boolean') errs.add(`${field}.isEnabled`, 'isEnabled must be a boolean value', value.isEnabled);
  let weekly: Schedule['weeklySchedule'];
  if (value.weeklySchedule === undefined && app.has('schedule-weekly-schedule-required')) errs.add(`${field}.weeklySchedule`, 'weeklySchedule must be an object', undefined);
  if (value.weeklySchedule !== undefined) {
    const ws = value.weeklySchedule;
    if (!isPlainObject(ws)) errs.add(`${field}.weeklySchedule`, 'weeklySchedule must be an object', ws);
    else {
      weekly = {};
      for (const [day, d] of Object.entries(ws)) {
        const f = `${field}.weeklySchedule.${day}`;
        if (!(WEEKDAYS as readonly string[]).includes(day)) {
          errs.add(f, `${day} is not a weekday (monday..sunday)`, d);
          continue;
        }
        if (!isPlainObject(d)) {
          errs.add(f, `${day} must be an object`, d);
          continue;
        }
        if (d.isEnabled !== undefined && typeof d.isEnabled !== 'boolean') errs.add(`${f}.isEnabled`, 'isEnabled must be a boolean value', d.isEnabled);
        const hours: { start: string; end: string }[] = [];
        if (d.hours === undefined && app.has('schedule-day-hours-required')) errs.add(`${f}.hours`, 'hours must be an array', undefined);
        if (d.hours !== undefined) {
          if (!Array.isArray(d.hours)) errs.add(`${f}.hours`, 'hours must be an array', d.hours);
          else
            d.hours.forEach((h, i) => {
              const hf = `${f}.hours[${i}]`;
              if (!isPlainObject(h)) return errs.add(hf, 'each hours entry must be an object with start and end', h);
              for (const k of ['start', 'end'] as const) {
                const v = h[k];
                if (typeof v !== 'string') errs.add(`${hf}.${k}`, `${k} must be a string`, v);
                else if (!app.has('schedule-24h-accepted') && !hourPattern(app).test(v)) errs.add(`${hf}.${k}`, `${k} must be a valid time in 12-hour format (HH:MM AM/PM)`, v);
              }
              if (typeof h.start === 'string' && typeof h.end === 'string') hours.push({ start: h.start, end: h.end });
            });
        }
        // why: fault `schedule-weekend-dropped` stores the working days only
        if (app.has('schedule-weekend-dropped') && (day === 'saturday' || day === 'sunday')) continue;
        weekly[day] = { ...(app.has('schedule-is-enabled-omitted') && typeof d.isEnabled !== 'boolean' ? {} : { isEnabled: flag(d.isEnabled) }), hours };
      }
    }
  }
  if (Object.keys(errs.errors).length !== before) return undefined;
  return {
    ...(app.has('schedule-is-enabled-omitted') && typeof value.isEnabled !== 'boolean' ? {} : { isEnabled: flag(value.isEnabled) }),
    ...(weekly ? { weeklySchedule: weekly } : {}),
  };
}

// why: an absent `isEnabled` (no field is required beyond those the spec marks) is stored as false, because the official
// client's ScheduleDto requires it in the answer, on the schedule and on each day (CLIENT-02)
function flag(v: unknown): boolean {
  return typeof v === 'boolean' ? v : false;
}

/** The hour pattern, or the wrong one a fault puts in its place. */
function hourPattern(app: Pick<App, 'has'>): RegExp {
  if (app.has('schedule-hour-strict-form')) return /^(0[1-9]|1[0-2]):[0-5][0-9] (AM|PM)$/i;
  if (app.has('schedule-hour-suffix-accepted')) return /^(0?[1-9]|1[0-2]):[0-5][0-9]\s?(AM|PM)/i;
  if (app.has('schedule-hour-12-rejected')) return /^(0?[1-9]|1[01]):[0-5][0-9]\s?(AM|PM)$/i;
  if (app.has('schedule-hour-00-accepted')) return /^(0?[0-9]|1[0-2]):[0-5][0-9]\s?(AM|PM)$/i;
  return HOUR_PATTERN;
}
