// Provisioning-only operations of this area (provisioning.md), not among the spec's eight: the suite uses them to set
// up and remove state. Moved out of routes/events.ts so that the mutation run can leave them out.
import type { RequestContext, RouteDef } from '../context.ts';
import { objectBody } from '../context.ts';
import { FieldErrors, HttpError } from '../errors.ts';
import { isPlainObject } from '../util.ts';
import { parseTrigger, runTrigger } from '../routes/events.ts';

export const MAX_BULK_EVENTS = 100;

function triggerBulk(ctx: RequestContext) {
  const b = objectBody(ctx);
  const errs = new FieldErrors();
  errs.arrayOfAtMost('events', b.events, MAX_BULK_EVENTS);
  errs.throwIfAny();
  const parsed = (b.events as unknown[]).map((e, i) => {
    if (!isPlainObject(e)) {
      errs.add(`events[${i}]`, 'each event must be an object', e);
      return undefined;
    }
    return parseTrigger(ctx, e, errs, `events[${i}].`);
  });
  errs.throwIfAny();
  const data = parsed.map((t) => {
    try {
      return runTrigger(ctx, t!);
    } catch (e) {
      if (e instanceof HttpError && e.status < 500) return { acknowledged: false, status: 'error', error: [e.message] };
      throw e;
    }
  });
  return { status: 201, body: { data } };
}

export function eventProvisioningRoutes(): RouteDef[] {
  return [
    { method: 'POST', path: '/v1/events/trigger/bulk', category: 'trigger', bulk: true, handler: triggerBulk },
  ];
}
