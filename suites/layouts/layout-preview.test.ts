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
