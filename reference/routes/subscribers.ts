// Subscribers: POST /v2/subscribers (upsert), DELETE /v2/subscribers/{id}, POST /v1/subscribers/bulk.
import type { App, RequestContext, RouteDef } from '../context.ts';
import { objectBody, ok } from '../context.ts';
import { FieldErrors, notFound } from '../errors.ts';
import { CHANNELS, type ChannelFlags, type EnvironmentState, type Subscriber } from '../store.ts';
import { isPlainObject, nowIso, objectId } from '../util.ts';
import { optObject, optString, reqString } from '../validate.ts';

const PROFILE_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone'] as const;
export const MAX_BULK_SUBSCRIBERS = 500;

export function allChannels(value: boolean): ChannelFlags {
  const c = {} as ChannelFlags;
  for (const ch of CHANNELS) c[ch] = value;
  return c;
}

/**
 * Validates a subscriber object (trigger recipient, actor, create body); returns errors into `errs`. `nullable`: a
 * null profile field or `data` clears it (the create body); trigger recipients carry strings, as the spec types them.
 */
export function checkSubscriberShape(errs: FieldErrors, o: Record<string, unknown>, prefix = '', { nullable = false } = {}): void {
  reqString(errs, o, 'subscriberId', prefix);
  for (const f of PROFILE_FIELDS) if (!(nullable && o[f] === null)) optString(errs, o, f, prefix);
  if (!(nullable && o.data === null)) optObject(errs, o, 'data', prefix);
  if (o.channels === undefined) return;
  if (!Array.isArray(o.channels)) return errs.add(prefix + 'channels', 'channels must be an array', o.channels);
  o.channels.forEach((c, i) => {
    const f = `${prefix}channels[${i}].`;
    if (!isPlainObject(c)) return errs.add(f.slice(0, -1), 'each channel must be an object', c);
    optString(errs, c, 'integrationIdentifier', f);
    const credentials = optObject(errs, c, 'credentials', f);
    if (!credentials) return;
    optString(errs, credentials, 'webhookUrl', `${f}credentials.`);
    const tokens = credentials.deviceTokens;
    if (tokens !== undefined && (!Array.isArray(tokens) || !tokens.every((t) => typeof t === 'string'))) {
      errs.add(`${f}credentials.deviceTokens`, 'each value in deviceTokens must be a string', tokens);
    }
  });
}

/** Creates or updates a subscriber from an already validated object. */
export function upsertSubscriber(env: EnvironmentState, o: Record<string, unknown>): { subscriber: Subscriber; created: boolean } {
  const id = o.subscriberId as string;
  const now = nowIso();
  let s = env.subscribers.get(id);
  const created = !s;
  if (!s) {
    s = {
      _id: objectId(),
      subscriberId: id,
      firstName: null,
      lastName: null,
      email: null,
      phone: null,
      avatar: null,
      locale: null,
      timezone: null,
      data: null,
      createdAt: now,
      updatedAt: now,
      globalChannels: allChannels(true),
      globalEnabled: true,
      workflowPrefs: new Map(),
    };
    env.subscribers.set(id, s);
  }
  for (const f of PROFILE_FIELDS) if (typeof o[f] === 'string' || o[f] === null) s[f] = o[f] as string | null;
  if (isPlainObject(o.data)) s.data = o.data;
  if (Array.isArray(o.channels)) s.channels = o.channels;
  s.updatedAt = now;
  return { subscriber: s, created };
}

/** Ensures a subscriber exists for a bare subscriberId recipient. */
export function ensureSubscriber(env: EnvironmentState, subscriberId: string): Subscriber {
  return env.subscribers.get(subscriberId) ?? upsertSubscriber(env, { subscriberId }).subscriber;
}

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

export function subscriberRoutes(): RouteDef[] {
  return [
    { method: 'POST', path: '/v2/subscribers', category: 'configuration', handler: createSubscriber },
    { method: 'GET', path: '/v2/subscribers/:subscriberId', category: 'configuration', handler: getSubscriber },
    { method: 'DELETE', path: '/v2/subscribers/:subscriberId', category: 'configuration', handler: deleteSubscriber },
    { method: 'POST', path: '/v1/subscribers/bulk', category: 'configuration', bulk: true, handler: bulkCreate },
  ];
}
