// POST /v1/events/trigger and /v1/events/trigger/bulk: validation, SSRF guard, payload schema, dedup, run.
import { randomUUID } from 'node:crypto';
import type { App, RequestContext, RouteDef } from '../context.ts';
import { objectBody } from '../context.ts';
import { FieldErrors, HttpError, ValidationError } from '../errors.ts';
import { describeErrors } from '../payload-schema.ts';
import { TRIGGER_MAX_BODY } from '../server.ts';
import { checkBridgeUrl, type SsrfGuardOptions } from '../ssrf-guard.ts';
import type { EnvironmentState } from '../store.ts';
import { isPlainObject, nowIso } from '../util.ts';
import { optContext, optObject, optString } from '../validate.ts';
import { stampNow } from './workflows.ts';
import { checkSubscriberShape, upsertSubscriber } from './subscribers.ts';

export const MAX_RECIPIENTS = 100;

interface TriggerRequest {
  name: string;
  recipients: unknown[];
  payload: Record<string, unknown> | undefined;
  bridgeUrl?: string;
  transactionId?: string;
  actor?: unknown;
}

function guardOptions(app: App): SsrfGuardOptions {
  return {
    allowHttp: app.has('bridge-url-http-allowed'),
    allowLoopback: app.has('bridge-url-loopback-allowed'),
    allowNonDecimalIp: app.has('bridge-url-hex-ip-allowed'),
    allowPrivate: app.has('bridge-url-private-allowed'),
    allowIpv6Internal: app.has('bridge-url-ipv6-allowed'),
    allowMetadata: app.has('bridge-url-metadata-allowed'),
    allowCredentials: app.has('bridge-url-credentials-allowed'),
    echoIp: app.has('bridge-url-ip-echoed'),
  };
}

/** Validates one trigger body; field names get `prefix` (bulk: `events[i].`). */
export function parseTrigger(ctx: RequestContext, b: Record<string, unknown>, errs: FieldErrors, prefix: string): TriggerRequest | undefined {
  const { app } = ctx;
  const before = Object.keys(errs.errors).length;
  const name = b.name;
  if (typeof name !== 'string' || name === '') errs.add(prefix + 'name', 'name must be a non-empty string', name);
  let recipients: unknown[] = [];
  if (b.to === undefined || b.to === null) errs.add(prefix + 'to', 'to should not be empty');
  else if (Array.isArray(b.to)) recipients = b.to;
  // The deployed contract (the official SDK) also sends one subscriberId or one subscriber object; no rule rejects them.
  else if (typeof b.to === 'string' || isPlainObject(b.to)) recipients = app.has('lone-recipient-invalid') ? [] : [b.to];
  else errs.add(prefix + 'to', 'to must be an array, a subscriberId or a subscriber object', b.to);
  const cap = app.has('recipient-cap-off-by-one') ? MAX_RECIPIENTS - 1 : MAX_RECIPIENTS;
  // why: fault `recipient-cap-counts-objects-only` counts the subscriber objects and lets any number of id strings through
  const counted = app.has('recipient-cap-counts-objects-only') ? recipients.filter((r) => isPlainObject(r)).length : recipients.length;
  const overCap = counted > cap && !app.has('recipient-cap-off');
  if (overCap) errs.add(prefix + 'to', `to must contain no more than ${MAX_RECIPIENTS} recipients`, recipients.length);
  else {
    recipients.forEach((r, i) => {
      const f = `${prefix}to[${i}]`;
      if (typeof r === 'string') {
        if (r === '') errs.add(f, 'subscriberId should not be empty', r);
      } else if (isPlainObject(r)) {
        if (r.type === 'Topic' && !app.has('topic-recipient-refused')) {
          // a field error says what is wrong: "" is a string, it is empty
          if (typeof r.topicKey !== 'string') errs.add(`${f}.topicKey`, 'topicKey must be a string', r.topicKey);
          else if (r.topicKey === '') errs.add(`${f}.topicKey`, 'topicKey should not be empty', r.topicKey);
        } else if (app.has('object-recipients-rejected') || (app.has('recipient-channels-rejected') && r.channels !== undefined)) errs.add(f, 'recipient must be a subscriberId string', r);
        else if (app.has('recipient-channel-provider-id-required') && Array.isArray(r.channels) && r.channels.some((c) => isPlainObject(c) && typeof c.providerId !== 'string')) errs.add(`${f}.channels`, 'each channel must name its providerId', r.channels);
        else if (app.has('channel-without-credentials-crash') && Array.isArray(r.channels) && r.channels.some((c) => isPlainObject(c) && c.credentials === undefined)) throw new Error('channel credentials read before they were checked');
        else checkSubscriberShape(errs, r, `${f}.`, { nullable: true });
      } else errs.add(f, 'recipient must be a subscriberId or a subscriber object', r);
    });
  }
  if (overCap && app.has('recipient-cap-partial')) {
    for (const r of recipients) if (isPlainObject(r) && typeof r.subscriberId === 'string') upsertSubscriber(ctx.env, r);
  }
  optObject(errs, b, 'payload', prefix);
  if (b.overrides !== undefined) checkOverrides(app, errs, b.overrides, `${prefix}overrides`);
  if (app.has('overrides-parts-required') && isPlainObject(b.overrides)) for (const k of ['steps', 'channels', 'providers']) if (b.overrides[k] === undefined) errs.add(`${prefix}overrides.${k}`, `${k} should not be empty`);
  if (b.bridgeUrl !== undefined && typeof b.bridgeUrl !== 'string') errs.add(prefix + 'bridgeUrl', 'bridgeUrl must be a string', b.bridgeUrl);
  if (b.transactionId !== undefined && typeof b.transactionId !== 'string') errs.add(prefix + 'transactionId', 'transactionId must be a string', b.transactionId);
  if (b.agentId !== undefined) {
    const okAgent = typeof b.agentId === 'string' || (b.agentId === null && !app.has('agent-id-null-rejected'));
    if (!okAgent) errs.add(prefix + 'agentId', 'agentId must be a string or null', b.agentId);
  }
  if (b.actor !== undefined) {
    if (typeof b.actor === 'string') {
      if (b.actor === '') errs.add(prefix + 'actor', 'actor should not be empty', b.actor);
    } else if (isPlainObject(b.actor) && !app.has('actor-object-rejected')) checkSubscriberShape(errs, b.actor, `${prefix}actor.`, { nullable: !app.has('actor-null-fields-refused') });
    else errs.add(prefix + 'actor', 'actor must be a subscriberId or a subscriber object', b.actor);
  }
  if (b.tenant !== undefined) {
    const okTenant = typeof b.tenant === 'string' || (isPlainObject(b.tenant) && !app.has('tenant-object-rejected'));
    if (!okTenant) errs.add(prefix + 'tenant', 'tenant must be a tenant identifier or a tenant object', b.tenant);
  }
  if (b.context !== undefined) {
    if (app.has('context-rejected')) errs.add(prefix + 'context', 'context must be an object', b.context);
    else optContext(errs, b, 'context', prefix);
  }
  if (Object.keys(errs.errors).length !== before) return undefined;
  return {
    name: name as string,
    recipients,
    payload: isPlainObject(b.payload) ? b.payload : undefined,
    ...(typeof b.bridgeUrl === 'string' ? { bridgeUrl: b.bridgeUrl } : {}),
    // the deployed contract allows an empty transactionId: the run gets a generated one, as if none were given
    ...(typeof b.transactionId === 'string' && b.transactionId !== '' ? { transactionId: b.transactionId } : {}),
    ...(b.actor !== undefined ? { actor: b.actor } : {}),
  };
}

/** `overrides`: maps of step, channel and provider settings, per-channel objects and a layout identifier. */
function checkOverrides(app: App, errs: FieldErrors, v: unknown, field: string): void {
  if (!isPlainObject(v)) return errs.add(field, 'overrides must be an object', v);
  const layoutId = (o: Record<string, unknown>, f: string) => {
    if (o.layoutId !== undefined && o.layoutId !== null && typeof o.layoutId !== 'string') errs.add(`${f}.layoutId`, 'layoutId must be a string or null', o.layoutId);
    if (app.has('overrides-layout-id-rejected') && typeof o.layoutId === 'string') errs.add(`${f}.layoutId`, 'layoutId must be an ObjectId', o.layoutId);
    if (app.has('overrides-null-layout-id-rejected') && o.layoutId === null) errs.add(`${f}.layoutId`, 'layoutId must be a string', o.layoutId);
  };
  const mapOfObjects = (key: string, each?: (o: Record<string, unknown>, f: string) => void) => {
    const map = optObject(errs, v, key, `${field}.`);
    for (const [k, o] of Object.entries(map ?? {})) {
      if (!isPlainObject(o)) errs.add(`${field}.${key}.${k}`, `${k} must be an object`, o);
      else each?.(o, `${field}.${key}.${k}`);
    }
  };
  mapOfObjects('steps', (o, f) => {
    optObject(errs, o, 'providers', `${f}.`);
    layoutId(o, f);
  });
  mapOfObjects('channels', (o, f) => {
    // why: fault `overrides-channel-keys-limited` knows the email channel only
    if (app.has('overrides-channel-keys-limited') && !f.endsWith('.channels.email')) errs.add(f, 'only the email channel can be overridden', o);
    layoutId(o, f);
  });
  mapOfObjects('providers');
  for (const channel of ['email', 'push', 'sms', 'chat']) optObject(errs, v, channel, `${field}.`);
  optString(errs, v, 'layoutIdentifier', `${field}.`);
}

/** The run's observable effects: upserted subscribers, lastTriggeredAt, recorded transactionId. */
function applySideEffects(app: App, env: EnvironmentState, t: TriggerRequest, transactionId: string, wf?: { lastTriggeredAt: string | null; runs: number }): void {
  env.transactionIds.add(transactionId);
  for (const r of t.recipients) if (isPlainObject(r) && r.type !== 'Topic') upsertSubscriber(env, r);
  if (isPlainObject(t.actor)) upsertSubscriber(env, t.actor);
  if (wf) {
    wf.lastTriggeredAt = stampNow(app);
    wf.runs++;
  }
  env.triggerRuns++;
}

function hasArrayOfObjectsInData(r: unknown): boolean {
  return isPlainObject(r) && isPlainObject(r.data) && Object.values(r.data).some((v) => Array.isArray(v) && v.some(isPlainObject));
}

function ack(app: App, status: string, transactionId?: string): Record<string, unknown> {
  const r: Record<string, unknown> = { acknowledged: true, status };
  if ((transactionId !== undefined || app.has('activity-feed-link-without-run')) && !app.has('trigger-missing-transaction-id')) {
    r.transactionId = transactionId;
    // TRIG-11: the link names the run; fault `activity-feed-link-generic` points at the feed only
    r.activityFeedLink = app.has('activity-feed-link-empty') ? '' : app.has('activity-feed-link-generic') ? 'https://dashboard.novu.co/activity-feed' : `https://dashboard.novu.co/activity-feed?transactionId=${encodeURIComponent(String(transactionId))}`;
  }
  return r;
}

/** Runs one validated trigger; throws HttpError for 4xx outcomes. */
export function runTrigger(ctx: RequestContext, t: TriggerRequest): Record<string, unknown> {
  const { app, env } = ctx;
  const guard = t.bridgeUrl !== undefined ? checkBridgeUrl(t.bridgeUrl, guardOptions(app), app) : null;
  const late = app.has('bridge-url-rejected-after-run');
  if (guard && !late) throw new HttpError(400, guard);

  const wf = env.findWorkflow(t.name);
  if (!wf) {
    if (app.has('unknown-workflow-processed')) return ack(app, 'processed', t.transactionId ?? randomUUID());
    throw new HttpError(404, `Workflow with identifier "${t.name}" was not found`);
  }
  if (!wf.active && !app.has('inactive-workflow-processed')) return ack(app, 'trigger_not_active');
  if (wf.steps.length === 0) return ack(app, 'no_workflow_steps_defined');
  if (t.recipients.length === 0 && !app.has('empty-to-processed')) return { acknowledged: true, status: 'invalid_recipients' };

  const payload = t.payload ?? {};
  if ((wf.validatePayload || app.has('payload-validated-when-disabled')) && wf.validator && !app.has('payload-validation-off')) {
    const valid = wf.validator(payload) && !app.has('valid-payload-rejected');
    if (!valid) {
      const extra: Record<string, unknown> = {
        type: app.has('payload-error-wrong-type') ? 'VALIDATION_ERROR' : 'PAYLOAD_VALIDATION_ERROR',
        errors: wf.validator.errors
          ? describeErrors(wf.validator.errors, payload, app)
          : [{ field: 'payload', message: 'payload was rejected', value: payload, schemaPath: '#' }],
      };
      if (!app.has('payload-error-missing-schema')) extra.schema = wf.payloadSchema;
      throw new HttpError(400, 'Payload validation failed', extra);
    }
  }
  if (app.has('500-without-errorId') && '__crash' in payload) throw new Error('crash requested by payload.__crash');
  if (app.has('recipient-data-array-crash') && t.recipients.some(hasArrayOfObjectsInData)) throw new Error('recipient data holds an array of objects');

  let transactionId = t.transactionId ?? randomUUID();
  if (t.transactionId !== undefined && app.has('transaction-id-not-echoed')) transactionId = randomUUID();
  const seen = t.transactionId !== undefined && env.transactionIds.has(t.transactionId);
  // why: fault `trigger-recipient-replaces-subscriber` drops the stored subscribers named as objects, so the upsert makes fresh ones
  if (app.has('trigger-recipient-replaces-subscriber')) for (const r of t.recipients) if (isPlainObject(r) && typeof r.subscriberId === 'string') env.subscribers.delete(r.subscriberId);
  if (!seen || app.has('transaction-id-not-deduplicated')) applySideEffects(app, env, t, transactionId, wf);
  if (guard) throw new HttpError(400, guard); // only reached with the rejected-after-run fault
  return ack(app, app.has('trigger-wrong-status') ? 'queued' : 'processed', transactionId);
}

function trigger(ctx: RequestContext) {
  const { app } = ctx;
  if (app.has('503-without-retry-after') && ++app.triggerCount % 50 === 0) {
    return { status: 503, body: 'Please wait some time, then try again' };
  }
  const errs = new FieldErrors();
  const t = parseTrigger(ctx, objectBody(ctx), errs, '');
  if (!t) throw new ValidationError(errs.errors);
  return { status: app.has('trigger-200') ? 200 : 201, body: { data: runTrigger(ctx, t) } };
}

export function eventRoutes(app: App): RouteDef[] {
  return [
    { method: 'POST', path: app.has('wrong-version-prefix') ? '/v2/events/trigger' : '/v1/events/trigger', category: 'trigger', maxBody: TRIGGER_MAX_BODY, handler: trigger },
  ];
}
