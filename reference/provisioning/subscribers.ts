// Provisioning-only operations of this area (provisioning.md), not among the spec's eight: the suite uses them to set
// up and remove state. Moved out of routes/subscribers.ts so that the mutation run can leave them out.
import type { App, RequestContext, RouteDef } from '../context.ts';
import { objectBody, ok } from '../context.ts';
import { FieldErrors, notFound } from '../errors.ts';
import type { EnvironmentState, Subscriber } from '../store.ts';
import { isPlainObject } from '../util.ts';
import { checkSubscriberShape, upsertSubscriber } from '../routes/subscribers.ts';

export const MAX_BULK_SUBSCRIBERS = 500;

export function subscriberDto(ctx: { app: App; env: EnvironmentState }, s: Subscriber): Record<string, unknown> {
  return {
    _id: s._id,
    subscriberId: s.subscriberId,
    firstName: s.firstName,
    lastName: s.lastName,
    email: s.email,
    phone: s.phone,
    avatar: s.avatar,
    locale: s.locale,
    timezone: s.timezone,
    data: s.data,
    ...(s.channels ? { channels: s.channels } : {}),
    _organizationId: ctx.app.org._id,
    _environmentId: ctx.env._id,
    deleted: false,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  };
}

function createSubscriber(ctx: RequestContext) {
  const b = objectBody(ctx);
  const errs = new FieldErrors();
  checkSubscriberShape(errs, b, '', { nullable: true });
  errs.throwIfAny();
  const { subscriber } = upsertSubscriber(ctx.env, b);
  return ok(201, subscriberDto(ctx, subscriber));
}

function deleteSubscriber(ctx: RequestContext) {
  const id = ctx.params.subscriberId!;
  if (!ctx.env.subscribers.delete(id)) throw notFound(`Subscriber "${id}"`);
  for (const t of ctx.env.topics.values()) for (const [k, sub] of t.subscriptions) if (sub.subscriberId === id) t.subscriptions.delete(k);
  return ok(200, { acknowledged: true, status: 'deleted' });
}

function bulkCreate(ctx: RequestContext) {
  const b = objectBody(ctx);
  const errs = new FieldErrors();
  errs.arrayOfAtMost('subscribers', b.subscribers, MAX_BULK_SUBSCRIBERS);
  errs.throwIfAny();
  const created: { subscriberId: string }[] = [];
  const updated: { subscriberId: string }[] = [];
  const failed: { subscriberId: string | null; message: string }[] = [];
  for (const s of b.subscribers as unknown[]) {
    const e = new FieldErrors();
    if (!isPlainObject(s)) {
      failed.push({ subscriberId: null, message: 'subscriber must be an object' });
      continue;
    }
    checkSubscriberShape(e, s, '', { nullable: true });
    if (e.any) {
      failed.push({ subscriberId: typeof s.subscriberId === 'string' ? s.subscriberId : null, message: Object.values(e.errors).flatMap((x) => x.messages).join('; ') });
      continue;
    }
    const r = upsertSubscriber(ctx.env, s);
    (r.created ? created : updated).push({ subscriberId: r.subscriber.subscriberId });
  }
  return ok(201, { created, updated, failed });
}

function getSubscriber(ctx: RequestContext) {
  const s = ctx.env.subscribers.get(ctx.params.subscriberId!);
  if (!s) throw notFound(`Subscriber "${ctx.params.subscriberId}"`);
  return ok(200, subscriberDto(ctx, s));
}

export function subscriberProvisioningRoutes(): RouteDef[] {
  return [
    { method: 'POST', path: '/v2/subscribers', category: 'configuration', handler: createSubscriber },
    { method: 'GET', path: '/v2/subscribers/:subscriberId', category: 'configuration', handler: getSubscriber },
    { method: 'DELETE', path: '/v2/subscribers/:subscriberId', category: 'configuration', handler: deleteSubscriber },
    { method: 'POST', path: '/v1/subscribers/bulk', category: 'configuration', bulk: true, handler: bulkCreate },
  ];
}
