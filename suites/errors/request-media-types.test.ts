// Bodies that are not JSON are refused as client errors (ERR-07): a non-JSON media type gets 415 (or 400/422),
// malformed JSON gets 400; never 2xx, never 5xx.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { expectCreated, expectNoWorkflow } from '../../fixtures/workflows/workflow-requests.ts';

const NON_JSON: { contentType: string; render: (body: { name: string; workflowId: string }) => string }[] = [
  // A valid JSON text labelled as plain text: a target that sniffs and accepts it would create the workflow.
  { contentType: 'text/plain', render: (b) => JSON.stringify({ ...b, steps: [] }) },
  { contentType: 'application/x-www-form-urlencoded', render: (b) => new URLSearchParams({ ...b, steps: '' }).toString() },
  { contentType: 'application/xml', render: (b) => `<workflow><name>${b.name}</name><workflowId>${b.workflowId}</workflowId><steps/></workflow>` },
  // Media types that only contain the text `application/json`: a type named `x-application`, and JSONPath (RFC 9535,
  // a query language, not JSON) with a parameter. A target that matches the text instead of the type reads them as JSON.
  { contentType: 'x-application/json', render: (b) => JSON.stringify({ ...b, steps: [] }) },
  { contentType: 'application/jsonpath;charset=utf-8', render: (b) => JSON.stringify({ ...b, steps: [] }) },
];

for (const { contentType, render } of NON_JSON) {
  conformance('ERR-07', `a workflow body sent as ${contentType} gets 415 (or 400/422) and creates nothing`, async ({ api, ids, cleanup }) => {
    const workflowId = ids.slug('wf');
    cleanup.remove(`workflow ${workflowId}`, `/v2/workflows/${workflowId}`);
    const res = await api.request('POST', '/v2/workflows', { rawBody: render({ name: `conformance ${workflowId}`, workflowId }), contentType });
    expect([415, 400, 422], `a body sent as ${contentType} is refused with 415 (or 400/422), never 2xx or 5xx; got ${res.status}`).toContain(res.status);
    await expectNoWorkflow(api, workflowId, `the ${contentType} body was refused`);
  });
}

const MALFORMED = '{"name": "conformance", "workflowId": "x", "steps": [';

conformance('ERR-07', 'malformed JSON in a workflow body gets 400', async ({ api }) => {
  const res = await api.request('POST', '/v2/workflows', { rawBody: MALFORMED, contentType: 'application/json' });
  expect(res.status, `malformed JSON is refused with 400 (never 5xx), got ${res.status}`).toBe(400);
});

conformance('ERR-07', 'malformed JSON in a trigger body gets 400', async ({ api }) => {
  const res = await api.request('POST', '/v1/events/trigger', { rawBody: '{"name": "conformance", "to": [', contentType: 'application/json' });
  expect(res.status, `malformed JSON is refused with 400 (never 5xx), got ${res.status}`).toBe(400);
});

conformance('ERR-07', 'malformed JSON in a preference update gets 400', async ({ api, provision }) => {
  const { subscriberId } = await provision.subscriber();
  const res = await api.request('PATCH', `/v2/subscribers/${subscriberId}/preferences`, { rawBody: '{"channels": {"email": fals', contentType: 'application/json' });
  expect(res.status, `malformed JSON is refused with 400 (never 5xx), got ${res.status}`).toBe(400);
});

conformance('ERR-07', 'the same workflow body sent as application/json with a charset is accepted', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await api.request('POST', '/v2/workflows', {
    rawBody: JSON.stringify({ name: `conformance ${workflowId}`, workflowId, steps: [] }),
    contentType: 'application/json; charset=utf-8',
  });
  if (typeof res.data?._id === 'string') cleanup.remove(`workflow ${workflowId}`, `/v2/workflows/${res.data._id}`);
  expectCreated(res, 'positive control: the body the other media types carried is created when labelled application/json; charset=utf-8');
});
