// DELETE /v2/topics/{topicKey}/subscriptions (partial success). Creating topics and subscribing are provisioning-only:
// provisioning/topics.ts.
import type { App, RequestContext, RouteDef } from '../context.ts';
import { objectBody } from '../context.ts';
import { FieldErrors, notFound } from '../errors.ts';
import type { EnvironmentState, Subscriber, Subscription, Topic } from '../store.ts';
import { isPlainObject, nowIso } from '../util.ts';

export const MAX_SUBSCRIPTION_ENTRIES = 100;

export interface EntryError {
  subscriberId: string;
  code: 'SUBSCRIBER_NOT_FOUND' | 'SUBSCRIPTION_NOT_FOUND';
  message: string;
}

/** The spec types these as strings, so unset profile fields are omitted rather than null. */
function subscriberSummary(subscriberId: string, s: Subscriber | undefined): Record<string, string> {
  const out: Record<string, string> = { _id: s?._id ?? '', subscriberId };
  for (const f of ['avatar', 'firstName', 'lastName', 'email'] as const) {
    const v = s?.[f];
    if (typeof v === 'string') out[f] = v;
  }
  return out;
}

export function subscriptionDto(app: App, env: EnvironmentState, t: Topic, sub: Subscription): Record<string, unknown> {
  const s = env.subscribers.get(sub.subscriberId);
  return {
    _id: sub._id,
    identifier: sub.identifier,
    topic: { _id: t._id, key: t.key, name: t.name, data: t.data },
    subscriber: subscriberSummary(sub.subscriberId, s),
    contextKeys: app.has('ts-bad-context-keys') ? ['default'] : [],
    createdAt: sub.createdAt,
    updatedAt: sub.updatedAt,
  };
}

export function getTopic(ctx: RequestContext): Topic {
  const t = ctx.env.topics.get(ctx.params.topicKey!);
  // TS-08: an unknown topic key gets 404
  if (!t) throw notFound(`Topic "${ctx.params.topicKey}"`);
  return t;
}

interface DeleteEntry {
  identifier?: string;
  subscriberId?: string;
}

/** The entries the cap counts: all of them (the faults count one kind only, or each kind apart). */
function cappedCount(app: RequestContext['app'], entries: unknown[]): number {
  const bySubscriber = entries.filter((e) => !isPlainObject(e) || e.subscriberId !== undefined).length;
  if (app.has('ts-cap-counts-subscriber-entries')) return bySubscriber;
  if (app.has('ts-cap-per-entry-kind')) return Math.max(bySubscriber, entries.length - bySubscriber);
  return entries.length;
}

function deleteSubscriptions(ctx: RequestContext) {
  const { app } = ctx;
  const b = objectBody(ctx);
  const errs = new FieldErrors();
  const entries: DeleteEntry[] = [];
  let overCap = false;
  const cap = app.has('ts-cap-off-by-one') ? MAX_SUBSCRIPTION_ENTRIES - 1 : MAX_SUBSCRIPTION_ENTRIES;
  if (b.subscriptions !== undefined) {
    if (!Array.isArray(b.subscriptions)) errs.add('subscriptions', 'subscriptions must be an array', b.subscriptions);
    else {
      if (cappedCount(app, b.subscriptions) > cap && !app.has('ts-cap-off')) {
        overCap = true;
        errs.add('subscriptions', `subscriptions must contain no more than ${MAX_SUBSCRIPTION_ENTRIES} elements`);
      }
      b.subscriptions.forEach((raw, i) => {
        // CLIENT-04: the official client's model lets an entry be a plain subscriber id, as it is on subscribe
        const e = typeof raw === 'string' && !app.has('ts-string-entries-refused') ? { subscriberId: raw } : raw;
        // why: both fields are optional (spec); an entry naming neither matches nothing and fails as an entry
        const ok =
          isPlainObject(e) &&
          (e.identifier === undefined || typeof e.identifier === 'string') &&
          (e.subscriberId === undefined || typeof e.subscriberId === 'string');
        if (!ok) errs.add(`subscriptions[${i}]`, 'each entry must be an object with an optional identifier and an optional subscriberId', e);
        // fault: an entry naming neither field is dropped before counting (left out of meta.totalCount and meta.failed)
        else if (app.has('ts-empty-entries-dropped') && e.identifier === undefined && e.subscriberId === undefined) return;
        else entries.push({ ...(e.identifier !== undefined ? { identifier: e.identifier as string } : {}), ...(e.subscriberId !== undefined ? { subscriberId: e.subscriberId as string } : {}) });
      });
    }
  }
  if (b.subscriberIds !== undefined && !app.has('ts-deprecated-ignored')) {
    if (!Array.isArray(b.subscriberIds)) errs.add('subscriberIds', 'subscriberIds must be an array', b.subscriberIds);
    else {
      // fault `ts-shared-cap`: both arrays count against one cap
      const counted = b.subscriberIds.length + (app.has('ts-shared-cap') && Array.isArray(b.subscriptions) ? b.subscriptions.length : 0);
      if (counted > MAX_SUBSCRIPTION_ENTRIES && !app.has('ts-cap-off-deprecated')) {
        overCap = true;
        errs.add('subscriberIds', `subscriberIds must contain no more than ${MAX_SUBSCRIPTION_ENTRIES} elements`);
      }
      b.subscriberIds.forEach((id, i) => {
        // TS-06: "" is a string like any other; it names no subscriber, so it fails as an entry (TS-03), as deployed
        if (typeof id !== 'string' || (id === '' && app.has('ts-empty-subscriber-id-refused'))) errs.add(`subscriberIds[${i}]`, 'each value in subscriberIds must be a string', id);
        else entries.push({ subscriberId: id });
      });
    }
  }
  const t = errs.any && !overCap ? undefined : getTopic(ctx);
  if (errs.any) {
    // why: the cap is checked before any removal; this fault removes the first 100 anyway
    if (overCap && t && app.has('ts-cap-partial-remove')) removeEntries(ctx, t, entries.slice(0, MAX_SUBSCRIPTION_ENTRIES));
    errs.throwIfAny();
  }
  const { data, errors } = removeEntries(ctx, t!, entries);
  const meta = {
    totalCount: app.has('ts-wrong-total') ? data.length : entries.length,
    successful: entries.length - errors.length,
    failed: errors.length,
  };
  // TS-08: when every entry fails, the result body comes with 400
  const allFailed = entries.length > 0 && errors.length === entries.length;
  const partial = errors.length > 0 && !allFailed;
  const status = allFailed || (partial && app.has('ts-partial-400')) ? 400 : 200;
  // fault `ts-partial-207`: a partial success answers 207 Multi-Status (the spec leaves the status open)
  if (status === 200) return { status: partial && app.has('ts-partial-207') ? 207 : status, body: { data, meta, errors } };
  // the 400 carries the result and the common error fields: the official client reads every 400 as ErrorDto
  const message = allFailed ? 'No subscription could be deleted' : 'Some subscriptions could not be deleted';
  return { status, body: { statusCode: 400, timestamp: nowIso(), path: ctx.url, message, data, meta, errors } };
}

function removeEntries(ctx: RequestContext, t: Topic, entries: DeleteEntry[]): { data: Record<string, unknown>[]; errors: EntryError[] } {
  const { app, env } = ctx;
  const data: Record<string, unknown>[] = [];
  const errors: EntryError[] = [];
  const removed = (sub: Subscription, actuallyRemove = true) => {
    data.push(subscriptionDto(app, env, t, sub));
    if (actuallyRemove) t.subscriptions.delete(sub.identifier);
  };
  for (const e of entries) {
    if (e.subscriberId === undefined && e.identifier === undefined) {
      errors.push({ subscriberId: '', code: 'SUBSCRIPTION_NOT_FOUND', message: 'The entry names neither an identifier nor a subscriberId' });
      continue;
    }
    const sid = e.subscriberId ?? e.identifier!.slice(e.identifier!.indexOf(':') + 1);
    if (e.subscriberId !== undefined && !env.subscribers.has(e.subscriberId)) {
      if (app.has('ts-no-partial-errors')) continue;
      errors.push({ subscriberId: e.subscriberId, code: 'SUBSCRIBER_NOT_FOUND', message: `Subscriber with id "${e.subscriberId}" not found` });
      continue;
    }
    if (e.identifier !== undefined) {
      const sub = app.has('ts-identifier-pair-refused') && e.subscriberId !== undefined ? undefined : t.subscriptions.get(e.identifier);
      if (!sub || (e.subscriberId !== undefined && sub.subscriberId !== e.subscriberId && !app.has('ts-identifier-pair-unchecked'))) {
        if (!sub && app.has('ts-unknown-identifier-counted')) continue;
        // TS-09: an existing subscriber without that subscription is reported, never counted as successful
        errors.push({ subscriberId: sid, code: 'SUBSCRIPTION_NOT_FOUND', message: `Subscription "${e.identifier}" not found in topic "${t.key}"` });
        continue;
      }
      removed(sub, !app.has('ts-delete-ignored'));
      continue;
    }
    const subs = [...t.subscriptions.values()].filter((s) => s.subscriberId === e.subscriberId);
    if (subs.length === 0) {
      // TS-09: a subscriber with no subscription to the topic is reported, never counted as successful
      errors.push({ subscriberId: sid, code: 'SUBSCRIPTION_NOT_FOUND', message: `Subscriber "${sid}" is not subscribed to topic "${t.key}"` });
      continue;
    }
    for (const sub of app.has('ts-subscriber-only-ignored') ? subs.slice(0, 1) : subs) removed(sub);
  }
  return { data, errors };
}

export function topicRoutes(): RouteDef[] {
  return [
    { method: 'DELETE', path: '/v2/topics/:topicKey/subscriptions', category: 'configuration', handler: deleteSubscriptions },
  ];
}

