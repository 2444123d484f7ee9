// Provisioning-only operations of this area (provisioning.md), not among the spec's eight: the suite uses them to set
// up and remove state. Moved out of routes/preferences.ts so that the mutation run can leave them out.
import type { RequestContext, RouteDef } from '../context.ts';
import { ok } from '../context.ts';
import { notFound } from '../errors.ts';
import { preferencesDto } from '../routes/preferences.ts';

function getPreferences(ctx: RequestContext) {
  const s = ctx.env.subscribers.get(ctx.params.subscriberId!);
  if (!s) throw notFound(`Subscriber "${ctx.params.subscriberId}"`);
  return ok(200, preferencesDto(ctx.app, ctx.env, s));
}

export function preferenceProvisioningRoutes(): RouteDef[] {
  return [
    { method: 'GET', path: '/v2/subscribers/:subscriberId/preferences', category: 'configuration', handler: getPreferences },
  ];
}
