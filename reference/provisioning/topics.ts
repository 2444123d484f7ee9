// Provisioning-only operations of this area (provisioning.md), not among the spec's eight: the suite uses them to set
// up and remove state. Moved out of routes/topics.ts so that the mutation run can leave them out.
import type { RequestContext, RouteDef } from '../context.ts';
import { objectBody, ok } from '../context.ts';
import { FieldErrors } from '../errors.ts';
import type { Topic } from '../store.ts';
import { isPlainObject, nowIso, objectId } from '../util.ts';
import { optObject, optString, reqString } from '../validate.ts';
import { type EntryError, MAX_SUBSCRIPTION_ENTRIES, getTopic, subscriptionDto } from '../routes/topics.ts';

function topicDto(t: Topic): Record<string, unknown> {
  return { _id: t._id, key: t.key, name: t.name, createdAt: t.createdAt, updatedAt: t.updatedAt };
}

function upsertTopic(ctx: RequestContext) {
  const b = objectBody(ctx);
  const errs = new FieldErrors();
  const key = reqString(errs, b, 'key');
  const name = optString(errs, b, 'name');
  const data = optObject(errs, b, 'data');
  errs.throwIfAny();
  const now = nowIso();
  const existing = ctx.env.topics.get(key!);
  if (existing) {
    if (name !== undefined) existing.name = name;
    if (data) existing.data = data;
    existing.updatedAt = now;
    return ok(200, topicDto(existing));
  }
  const t: Topic = { _id: objectId(), key: key!, name: name ?? key!, data: data ?? {}, createdAt: now, updatedAt: now, subscriptions: new Map() };
  ctx.env.topics.set(t.key, t);
  return ok(201, topicDto(t));
}

function deleteTopic(ctx: RequestContext) {
  const t = getTopic(ctx);
  ctx.env.topics.delete(t.key);
  return ok(200, { acknowledged: true });
}

function readTopic(ctx: RequestContext) {
  return ok(200, topicDto(getTopic(ctx)));
}

function subscribe(ctx: RequestContext) {
  const { app, env } = ctx;
  const b = objectBody(ctx);
  const errs = new FieldErrors();
  const entries: { identifier?: string; subscriberId: string }[] = [];
  const collect = (field: string, list: unknown) => {
    if (list === undefined || !errs.arrayOfAtMost(field, list, MAX_SUBSCRIPTION_ENTRIES)) return;
    list.forEach((e, i) => {
      if (typeof e === 'string' && e !== '') entries.push({ subscriberId: e });
      else if (isPlainObject(e) && typeof e.subscriberId === 'string' && (e.identifier === undefined || typeof e.identifier === 'string')) {
        entries.push({ subscriberId: e.subscriberId, ...(e.identifier ? { identifier: e.identifier } : {}) });
      } else errs.add(`${field}[${i}]`, 'each entry must be a subscriberId or {identifier?, subscriberId}', e);
    });
  };
  collect('subscriptions', b.subscriptions);
  collect('subscriberIds', b.subscriberIds);
  if (b.subscriptions === undefined && b.subscriberIds === undefined) errs.add('subscriptions', 'subscriptions must be an array');
  errs.throwIfAny();
  const now = nowIso();
  let t = env.topics.get(ctx.params.topicKey!);
  if (!t) {
    // why: the deployed service creates the topic on first subscription
    t = { _id: objectId(), key: ctx.params.topicKey!, name: ctx.params.topicKey!, data: {}, createdAt: now, updatedAt: now, subscriptions: new Map() };
    env.topics.set(t.key, t);
  }
  const data: Record<string, unknown>[] = [];
  const errors: EntryError[] = [];
  const sep = app.has('ts-bad-identifier') ? '-' : ':';
  for (const e of entries) {
    if (!env.subscribers.has(e.subscriberId)) {
      errors.push({ subscriberId: e.subscriberId, code: 'SUBSCRIBER_NOT_FOUND', message: `Subscriber with id "${e.subscriberId}" not found` });
      continue;
    }
    const identifier = e.identifier ?? `${t.key}${sep}${e.subscriberId}`;
    let sub = t.subscriptions.get(identifier);
    if (!sub) {
      sub = { _id: objectId(), identifier, subscriberId: e.subscriberId, createdAt: now, updatedAt: now };
      t.subscriptions.set(identifier, sub);
    }
    data.push(subscriptionDto(app, env, t, sub));
  }
  return { status: 201, body: { data, meta: { totalCount: entries.length, successful: data.length, failed: errors.length }, errors } };
}

function listSubscriptions(ctx: RequestContext) {
  const t = getTopic(ctx);
  const data = [...t.subscriptions.values()].map((s) => subscriptionDto(ctx.app, ctx.env, t, s));
  // the deployed list is one page of a cursor listing, never wrapped in a single-key {data}
  return { status: 200, body: { data, next: null, previous: null, totalCount: data.length, totalCountCapped: false } };
}

export function topicProvisioningRoutes(): RouteDef[] {
  return [
    { method: 'POST', path: '/v2/topics', category: 'configuration', handler: upsertTopic },
    { method: 'GET', path: '/v2/topics/:topicKey', category: 'configuration', handler: readTopic },
    { method: 'DELETE', path: '/v2/topics/:topicKey', category: 'configuration', handler: deleteTopic },
    { method: 'POST', path: '/v2/topics/:topicKey/subscriptions', category: 'configuration', handler: subscribe },
    { method: 'GET', path: '/v2/topics/:topicKey/subscriptions', category: 'configuration', handler: listSubscriptions },
  ];
}
