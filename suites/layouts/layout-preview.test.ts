// LP-01..LP-05: POST /v2/layouts/{layoutId}/preview for a layout created by the test.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { expectErrorResponse } from '../../harness/checks/error-body.ts';
import type { ApiClient } from '../../harness/http/api-client.ts';
import type { IdFactory } from '../../harness/conformance/ids.ts';

interface PreviewResponse {
  previewPayloadExample?: { subscriber?: Record<string, unknown> };
  result?: { type?: unknown; preview?: { body?: unknown } };
  schema?: unknown;
}

const previewPath = (layoutId: string) => `/v2/layouts/${encodeURIComponent(layoutId)}/preview`;

/** A preview request with every kind of subscriber field the spec lists (strings, data object). */
function previewBody(ids: IdFactory, subscriber: Record<string, unknown> = {}) {
  return {
    controlValues: { email: { body: '<html><body><div>{{content}}</div></body></html>', editorType: 'html' } },
    previewPayload: {
      subscriber: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: `${ids.slug('preview')}@example.com`,
        locale: 'en_GB',
        timezone: 'Europe/London',
        data: { plan: 'conformance' },
        ...subscriber,
      },
    },
  };
}

async function preview(api: ApiClient, layoutId: string, body: unknown) {
  const res = await api.post<PreviewResponse>(previewPath(layoutId), body);
  expect(res.status, `a preview of the existing layout ${layoutId} succeeds (deployed: 201), got ${res.status} ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(200);
  expect(res.status, `a preview of the existing layout ${layoutId} succeeds with 2xx`).toBeLessThan(300);
  return res;
}

conformance('LP-01', 'a preview of an existing layout succeeds with previewPayloadExample, result and schema', async ({ api, provision, ids }) => {
  const { layoutId } = await provision.layout();
  const res = await preview(api, layoutId, previewBody(ids));
  expect({ method: 'POST', path: previewPath(layoutId), status: res.status, body: res.json }).toMatchResponseSchema();
  const body = res.data ?? {};
  expect(body.previewPayloadExample?.subscriber, 'previewPayloadExample is an object with a subscriber object').toBeTypeOf('object');
  expect(body.result?.type, 'result.type is a string').toBeTypeOf('string');
  expect(body.result?.preview?.body, 'result.preview.body is a string').toBeTypeOf('string');
  expect(body.schema !== null && typeof body.schema === 'object' && !Array.isArray(body.schema), `schema is an object, got ${JSON.stringify(body.schema)?.slice(0, 100)}`).toBe(true);
});

// The spec lists a channel's fields without marking any required; the response's example adds `providerId` itself.
conformance('LP-01', 'a preview whose subscriber channels carry no providerId succeeds', async ({ api, provision, ids }) => {
  const { layoutId } = await provision.layout();
  const channels = [
    { credentials: { webhookUrl: 'https://hooks.example.com/conformance', channel: 'general' }, integrationIdentifier: ids.slug('chat') },
    { credentials: { deviceTokens: ['token-1'] }, _integrationId: 'integration-push' },
    { credentials: {} },
  ];
  const res = await preview(api, layoutId, previewBody(ids, { channels }));
  expect(res.data?.previewPayloadExample?.subscriber, 'previewPayloadExample is an object with a subscriber object').toBeTypeOf('object');
  expect(res.data?.result?.preview?.body, 'result.preview.body is a string').toBeTypeOf('string');
});

conformance('LP-02', 'the preview of an email layout has result.type email', async ({ api, provision, ids }) => {
  const { layoutId } = await provision.layout();
  const res = await preview(api, layoutId, previewBody(ids));
  expect(res.data?.result?.type, 'result.type of an email layout preview').toBe('email');
});

conformance('LP-03', 'the given previewPayload subscriber fields appear in previewPayloadExample.subscriber', async ({ api, provision, ids }) => {
  const { layoutId } = await provision.layout();
  const body = previewBody(ids);
  const res = await preview(api, layoutId, body);
  const example = res.data?.previewPayloadExample?.subscriber ?? {};
  for (const [field, value] of Object.entries(body.previewPayload.subscriber)) {
    expect(example[field], `previewPayloadExample.subscriber.${field} carries the given value`).toEqual(value);
  }
});

conformance('LP-04', 'a preview of an unknown layoutId gets 404', async ({ api, ids }) => {
  const res = await api.post(previewPath(ids.slug('missing-layout')), previewBody(ids));
  expectErrorResponse(res, 404, 'a layoutId that does not exist');
});

conformance('LP-05', 'preview subscriber fields of the wrong type are rejected with 4xx, never 5xx', async ({ api, provision, ids }) => {
  const { layoutId } = await provision.layout();
  const wrong = { 'isOnline: "yes"': { isOnline: 'yes' }, 'channels: "x"': { channels: 'x' } };
  for (const [label, fields] of Object.entries(wrong)) {
    const res = await api.post(previewPath(layoutId), previewBody(ids, fields));
    expect(res.status, `a preview subscriber with ${label} is a client error: 4xx, got ${res.status}`).toBeGreaterThanOrEqual(400);
    expect(res.status, `a preview subscriber with ${label} is rejected with 4xx, never 5xx`).toBeLessThan(500);
  }
});

/** Checks LP-01's shape of a preview answer. */
function expectPreviewShape(body: PreviewResponse, what: string): void {
  expect(body.previewPayloadExample?.subscriber, `${what}: previewPayloadExample is an object with a subscriber object`).toBeTypeOf('object');
  expect(body.result?.type, `${what}: result.type is a string`).toBeTypeOf('string');
  expect(body.result?.preview?.body, `${what}: result.preview.body is a string`).toBeTypeOf('string');
  expect(body.schema !== null && typeof body.schema === 'object' && !Array.isArray(body.schema), `${what}: schema is an object, got ${JSON.stringify(body.schema)?.slice(0, 100)}`).toBe(true);
}

// The spec marks no field of the preview body required (RULES.md: no required field beyond those the spec marks).
conformance('LP-01', 'a preview needs no body field: an empty body, controlValues alone, or a previewPayload without subscriber succeed', async ({ api, provision }) => {
  const { layoutId } = await provision.layout();
  const bodies: Record<string, unknown> = {
    'an empty body {}': {},
    'controlValues without previewPayload': { controlValues: { email: { body: '<html><body><div>{{content}}</div></body></html>', editorType: 'html' } } },
    'a previewPayload without subscriber': { previewPayload: {} },
  };
  for (const [label, body] of Object.entries(bodies)) {
    const res = await preview(api, layoutId, body);
    expectPreviewShape(res.data ?? {}, `a preview with ${label}`);
  }
});

/** A channel entry in the deployed contract's shape (ChannelSettingsDto: providerId, credentials, _integrationId). */
const slackChannel = () => ({ providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example.com/conformance' }, _integrationId: 'integration-slack', integrationIdentifier: 'slack-conformance' });

conformance('LP-03', 'every subscriber field the spec lists (channels, topics, isOnline, lastOnlineAt, __v, …) appears in previewPayloadExample.subscriber', async ({ api, provision, ids }) => {
  const { layoutId } = await provision.layout();
  const body = previewBody(ids, {
    _id: ids.slug('preview-subscriber'),
    phone: '+15550100',
    avatar: 'https://example.com/avatar.png',
    topics: ['news', 'billing'],
    isOnline: true,
    lastOnlineAt: '2026-01-01T00:00:00.000Z',
    __v: 0,
    channels: [slackChannel(), { providerId: 'fcm', credentials: { deviceTokens: ['token-1', 'token-2'] }, _integrationId: 'integration-fcm' }],
  });
  const res = await preview(api, layoutId, body);
  const example = res.data?.previewPayloadExample?.subscriber ?? {};
  for (const [field, value] of Object.entries(body.previewPayload.subscriber)) {
    expect(example[field], `previewPayloadExample.subscriber.${field} carries the given value`).toEqual(value);
  }
});

/** Sends a preview with the given subscriber fields; expects a 4xx (never 2xx, never 5xx). */
async function expectRejected(api: ApiClient, layoutId: string, body: unknown, label: string): Promise<void> {
  const res = await api.post(previewPath(layoutId), body);
  expect(res.status, `a preview subscriber with ${label} is a client error: 4xx, got ${res.status}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `a preview subscriber with ${label} is rejected with 4xx, never 5xx`).toBeLessThan(500);
}

/** One value of another type for each subscriber field the spec types (besides the rule's own examples above). */
const WRONG_FIELD_TYPES: Record<string, Record<string, unknown>> = {
  '_id: 5': { _id: 5 },
  'firstName: 5': { firstName: 5 },
  'lastName: true': { lastName: true },
  'email: 5': { email: 5 },
  'phone: 5': { phone: 5 },
  'avatar: {}': { avatar: {} },
  'locale: 5': { locale: 5 },
  'timezone: []': { timezone: [] },
  'lastOnlineAt: 5': { lastOnlineAt: 5 },
  '__v: "one"': { __v: 'one' },
  'data: "x"': { data: 'x' },
  'topics: "x"': { topics: 'x' },
  'topics: ["news", 7]': { topics: ['news', 7] },
  'channels: ["x"]': { channels: ['x'] },
};

conformance('LP-05', 'each subscriber field the spec types (strings, __v, data, topics, channels entries) is rejected with 4xx when of another type', async ({ api, provision, ids }) => {
  const { layoutId } = await provision.layout();
  for (const [label, fields] of Object.entries(WRONG_FIELD_TYPES)) await expectRejected(api, layoutId, previewBody(ids, fields), label);
});

/** A channel entry with one field of another type (the spec's channel settings and credentials fields). */
const WRONG_CHANNEL_TYPES: Record<string, (c: ReturnType<typeof slackChannel>) => Record<string, unknown>> = {
  'providerId: 5': (c) => ({ ...c, providerId: 5 }),
  '_integrationId: 5': (c) => ({ ...c, _integrationId: 5 }),
  'integrationIdentifier: 5': (c) => ({ ...c, integrationIdentifier: 5 }),
  'credentials: "x"': (c) => ({ ...c, credentials: 'x' }),
  ...Object.fromEntries(
    ['webhookUrl', 'channel', 'alertUid', 'title', 'imageUrl', 'state', 'externalUrl'].map((k) => [`credentials.${k}: 5`, (c: ReturnType<typeof slackChannel>) => ({ ...c, credentials: { ...c.credentials, [k]: 5 } })]),
  ),
  'credentials.deviceTokens: "x"': (c) => ({ ...c, credentials: { ...c.credentials, deviceTokens: 'x' } }),
  'credentials.deviceTokens: ["token", 7]': (c) => ({ ...c, credentials: { ...c.credentials, deviceTokens: ['token', 7] } }),
};

conformance('LP-05', 'a channels entry with a field of another type (providerId, credentials and its fields, …) is rejected with 4xx', async ({ api, provision, ids }) => {
  const { layoutId } = await provision.layout();
  for (const [label, wrong] of Object.entries(WRONG_CHANNEL_TYPES)) await expectRejected(api, layoutId, previewBody(ids, { channels: [wrong(slackChannel())] }), `a channel whose ${label}`);
});

// Every field of the preview body is optional, so is the body itself: a request without one is read as `{}`.
conformance('LP-01', 'a preview sent without any body succeeds', async ({ api, provision }) => {
  const { layoutId } = await provision.layout();
  const res = await preview(api, layoutId, undefined);
  expect(res.status >= 200 && res.status < 300, `a preview without a body (every field optional) succeeds (deployed: 201), got ${res.status} ${res.text.slice(0, 200)}`).toBe(true);
  expectPreviewShape(res.data ?? {}, 'a preview without a body');
});
