// POST /v2/layouts/{layoutId}/preview. Creating, reading and deleting layouts are provisioning-only: provisioning/layouts.ts.
import type { App, RequestContext, RouteDef } from '../context.ts';
import { objectBody, ok } from '../context.ts';
import { FieldErrors, notFound } from '../errors.ts';
import { isPlainObject } from '../util.ts';

const STRING_FIELDS = ['_id', 'firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone', 'lastOnlineAt'] as const;
/** ISO-8601 date-time, as `lastOnlineAt` is typed (format date-time). */
/** The provider a preview names for a channel given without one, by its credentials (the deployed contract's enum holds chat and push providers only). */
const defaultChannelProvider = (c: Record<string, unknown>) => (isPlainObject(c.credentials) && c.credentials.deviceTokens !== undefined ? 'fcm' : 'chat-webhook');
const CREDENTIAL_STRINGS = ['webhookUrl', 'channel', 'alertUid', 'title', 'imageUrl', 'state', 'externalUrl'] as const;

export const DEFAULT_BODY = '<html><head><meta charset="utf-8"></head><body><div>{{content}}</div></body></html>';

/** JSON Schema of the preview payload (what the `schema` response field describes). */
function previewSchema(): Record<string, unknown> {
  const str = { type: 'string' };
  return {
    type: 'object',
    properties: {
      subscriber: {
        type: 'object',
        properties: {
          ...Object.fromEntries(STRING_FIELDS.map((f) => [f, str])),
          channels: { type: 'array', items: { type: 'object', properties: { providerId: str, credentials: { type: 'object' }, _integrationId: str, integrationIdentifier: str } } },
          topics: { type: 'array', items: str },
          isOnline: { type: 'boolean' },
          __v: { type: 'number' },
          data: { type: 'object', additionalProperties: true },
        },
        additionalProperties: true,
      },
    },
  };
}

/** Fields the deployed contract allows as null (SubscriberResponseDtoOptional); `_id`, `__v`, `topics` and `channels` are not. */
const NULLABLE_FIELDS = new Set(['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone', 'lastOnlineAt', 'isOnline', 'data']);

// LP-05: subscriber fields of the wrong type are a 422, never a crash
function validatePreviewSubscriber(app: App, errs: FieldErrors, s: Record<string, unknown>): void {
  const p = 'previewPayload.subscriber.';
  const absent = (f: string) => s[f] === undefined || (s[f] === null && NULLABLE_FIELDS.has(f));
  for (const f of STRING_FIELDS) if (!absent(f) && typeof s[f] !== 'string') errs.add(p + f, `${f} must be a string`, s[f]);
  if (!absent('isOnline') && typeof s.isOnline !== 'boolean') errs.add(p + 'isOnline', 'isOnline must be a boolean value', s.isOnline);
  if (s.__v !== undefined && typeof s.__v !== 'number') errs.add(p + '__v', '__v must be a number', s.__v);
  if (!absent('data') && !isPlainObject(s.data)) errs.add(p + 'data', 'data must be an object', s.data);
  if (s.topics !== undefined && (!Array.isArray(s.topics) || !s.topics.every((t) => typeof t === 'string'))) {
    errs.add(p + 'topics', 'each value in topics must be a string', s.topics);
  }
  if (s.channels !== undefined) {
    if (!Array.isArray(s.channels)) return errs.add(p + 'channels', 'channels must be an array', s.channels);
    s.channels.forEach((c, i) => {
      const f = `${p}channels[${i}]`;
      if (!isPlainObject(c)) return errs.add(f, 'each channel must be an object', c);
      if (app.has('lp-channel-provider-id-required') && c.providerId === undefined) errs.add(`${f}.providerId`, 'providerId should not be empty');
      for (const k of ['providerId', '_integrationId', 'integrationIdentifier'] as const) {
        if (c[k] !== undefined && typeof c[k] !== 'string') errs.add(`${f}.${k}`, `${k} must be a string`, c[k]);
      }
      if (c.credentials !== undefined) {
        if (!isPlainObject(c.credentials)) return errs.add(`${f}.credentials`, 'credentials must be an object', c.credentials);
        for (const k of CREDENTIAL_STRINGS) {
          const v = c.credentials[k];
          if (v !== undefined && typeof v !== 'string') errs.add(`${f}.credentials.${k}`, `${k} must be a string`, v);
        }
        const dt = c.credentials.deviceTokens;
        if (dt !== undefined && (!Array.isArray(dt) || !dt.every((x) => typeof x === 'string'))) errs.add(`${f}.credentials.deviceTokens`, 'each value in deviceTokens must be a string', dt);
      }
    });
  }
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function preview(ctx: RequestContext) {
  const { app } = ctx;
  const b = objectBody(ctx);
  const errs = new FieldErrors();
  if (app.has('lp-optional-fields-required')) {
    for (const f of ['controlValues', 'previewPayload'] as const) if (b[f] === undefined) errs.add(f, `${f} should not be empty`);
    if (isPlainObject(b.previewPayload) && b.previewPayload.subscriber === undefined) errs.add('previewPayload.subscriber', 'subscriber should not be empty');
  }
  if (b.controlValues !== undefined && !isPlainObject(b.controlValues)) errs.add('controlValues', 'controlValues must be an object', b.controlValues);
  let given: Record<string, unknown> = {};
  if (b.previewPayload !== undefined) {
    if (!isPlainObject(b.previewPayload)) errs.add('previewPayload', 'previewPayload must be an object', b.previewPayload);
    else if (b.previewPayload.subscriber !== undefined) {
      if (!isPlainObject(b.previewPayload.subscriber)) errs.add('previewPayload.subscriber', 'subscriber must be an object', b.previewPayload.subscriber);
      else {
        const sub = b.previewPayload.subscriber;
        // what the type checks see: all of it, less under the two LP-05 faults
        const checked = app.has('lp-field-types-unchecked') ? { isOnline: sub.isOnline, channels: sub.channels } : app.has('lp-channel-entries-unchecked') && Array.isArray(sub.channels) ? { ...sub, channels: [] } : sub;
        validatePreviewSubscriber(app, errs, checked);
        if (app.has('lp-typed-fields-rejected')) {
          for (const f of ['isOnline', '__v', 'topics', 'channels']) if (sub[f] !== undefined) errs.add(`previewPayload.subscriber.${f}`, `${f} is not accepted`, sub[f]);
        }
        given = sub;
      }
    }
  }
  errs.throwIfAny();
  const layout = ctx.env.layouts.get(ctx.params.layoutId!);
  // LP-04: an unknown layoutId gets 404
  if (!layout) throw notFound(`Layout "${ctx.params.layoutId}"`);
  const defaults: Record<string, unknown> = {
    _id: 'preview-subscriber',
    firstName: 'John',
    lastName: 'Doe',
    email: 'john.doe@example.com',
    phone: '+1234567890',
    avatar: 'https://example.com/avatar.png',
    locale: 'en_US',
    timezone: 'UTC',
    data: {},
  };
  const subscriber = app.has('lp-subscriber-dropped') ? defaults : { ...defaults, ...given };
  // why: the spec's preview example carries `providerId` on every channel, also where the request left it out
  if (Array.isArray(subscriber.channels) && !app.has('lp-channel-provider-id-not-filled')) {
    // and `_integrationId`, which the deployed contract's answer requires (CLIENT-02), empty where none was given
    subscriber.channels = subscriber.channels.map((c: Record<string, unknown>) => ({ providerId: defaultChannelProvider(c), _integrationId: '', ...c }));
  }
  const controls = isPlainObject(b.controlValues) && isPlainObject(b.controlValues.email) ? b.controlValues.email : {};
  const template = typeof controls.body === 'string' ? controls.body : DEFAULT_BODY;
  const html = template
    .replace(/\{\{\s*content\s*\}\}/g, `<p>Hello ${escapeHtml(String(subscriber.firstName ?? ''))}</p>`)
    .replace(/\{\{\s*subscriber\.(\w+)\s*\}\}/g, (_m, k: string) => escapeHtml(String(subscriber[k] ?? '')));
  const body: Record<string, unknown> = {
    previewPayloadExample: { subscriber },
    result: { type: app.has('lp-wrong-type') ? 'html' : 'email', preview: { body: app.has('lp-preview-body-not-string') ? { html } : html } },
    schema: previewSchema(),
  };
  if (app.has('lp-missing-schema')) delete body.schema;
  return ok(201, body);
}

export function layoutRoutes(): RouteDef[] {
  return [
    { method: 'POST', path: '/v2/layouts/:layoutId/preview', category: 'configuration', handler: preview },
  ];
}
