// POST /v2/workflows rejects a body without a required field (WF-03) or with a workflowId outside the slug pattern (WF-04).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { errorFields, expectCreated, expectNoWorkflow, namesField, postWorkflow } from '../../fixtures/workflows/workflow-requests.ts';

const REQUIRED = ['name', 'workflowId', 'steps'] as const;

function bodyWithout(field: (typeof REQUIRED)[number], workflowId: string): Record<string, unknown> {
  const body: Record<string, unknown> = { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'In-app', type: 'in_app' }] };
  delete body[field];
  return body;
}

for (const field of REQUIRED) {
  conformance('WF-03', `POST /v2/workflows without ${field} is rejected with 422 or 400 and creates nothing`, async ({ api, ids, cleanup }) => {
    const workflowId = ids.slug('wf');
    const res = await postWorkflow(api, cleanup, bodyWithout(field, workflowId));
    expect([400, 422], `a body missing the required \`${field}\` is rejected with 422 (400 tolerated), got ${res.status}`).toContain(res.status);
    if (res.status === 422) {
      expect(namesField(errorFields(res), field), `the 422 errors map names \`${field}\` (got fields ${JSON.stringify(errorFields(res))})`).toBe(true);
    }
    if (field !== 'workflowId') await expectNoWorkflow(api, workflowId, `a body without \`${field}\` was rejected`);
  });

  conformance(
    'WF-03',
    `POST /v2/workflows without ${field} answers 422 naming ${field}`,
    async ({ api, ids, cleanup }) => {
      const res = await postWorkflow(api, cleanup, bodyWithout(field, ids.slug('wf')));
      expect(res.status, `a body missing \`${field}\` gets 422 (400 is a SHOULD-level deviation)`).toBe(422);
      expect(namesField(errorFields(res), field), `the 422 errors map names \`${field}\` (got fields ${JSON.stringify(errorFields(res))})`).toBe(true);
    },
    { level: 'SHOULD' },
  );
}

conformance('WF-04', 'a workflowId using "-", "_" and "." inside the slug pattern is accepted', async ({ api, ids, cleanup }) => {
  const workflowId = `${ids.slug('wf')}.v1_x`;
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [] });
  expectCreated(res, `workflowId "${workflowId}" matches the slug pattern and is created`);
  expect(res.data.workflowId, 'the workflowId is kept as sent').toBe(workflowId);
});

const OUTSIDE_PATTERN: { label: string; make: (slug: string) => string }[] = [
  { label: 'a space', make: (slug) => `${slug} x` },
  { label: '"!"', make: (slug) => `${slug}!` },
  { label: 'a leading "-"', make: (slug) => `-${slug}` },
  { label: 'the empty string', make: () => '' },
];

for (const { label, make } of OUTSIDE_PATTERN) {
  conformance('WF-04', `a workflowId with ${label} is rejected with 422`, async ({ api, ids, cleanup }) => {
    const workflowId = make(ids.slug('wf'));
    const res = await postWorkflow(api, cleanup, { name: `conformance ${label}`, workflowId, steps: [] });
    expect(res.status, `workflowId ${JSON.stringify(workflowId)} is outside the slug pattern and must be rejected with 422`).toBe(422);
    if (workflowId !== '') await expectNoWorkflow(api, workflowId, `workflowId ${JSON.stringify(workflowId)} was rejected`);
  });
}

// The JSON value `null` is a body without any of the required fields (the deployed service's JSON parser, strict like
// body-parser's default, answers 400 before looking further).
conformance('WF-03', 'POST /v2/workflows with the JSON body null is rejected with 422 or 400', async ({ api }) => {
  const res = await api.post('/v2/workflows', undefined, { rawBody: 'null', contentType: 'application/json' });
  expect([400, 422], `a body of \`null\` lacks name, workflowId and steps and is rejected with 422 (400 tolerated), got ${res.status}: ${res.text.slice(0, 300)}`).toContain(res.status);
});

// A 201 answer is valid against the workflow response schema, whatever the body held (WF-01; the passive checks read
// every answer with it and with the official client's models, CLIENT-02): a target may reject a mistyped field or accept
// it, but what it answers stays in the schema (`active` is a boolean, `name` a string).
const MISTYPED: { field: 'active' | 'name'; value: unknown; type: 'boolean' | 'string' }[] = [
  { field: 'active', value: 'yes', type: 'boolean' },
  { field: 'name', value: 5, type: 'string' },
];

for (const { field, value, type } of MISTYPED) {
  conformance('WF-01', `a workflow sent with a non-${type} \`${field}\` is rejected, or answered with a ${type} \`${field}\``, async ({ api, ids, cleanup }) => {
    const workflowId = ids.slug('wf');
    const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [], [field]: value });
    const sent = `\`${field}: ${JSON.stringify(value)}\``;
    if (res.status >= 200 && res.status < 300) {
      expect(typeof res.data?.[field], `an accepted workflow's \`${field}\` is a ${type} (the workflow response schema), got ${JSON.stringify(res.data?.[field])}`).toBe(type);
    } else {
      expect(res.status, `${sent}: a rejection is a client error (4xx), got ${res.status}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${sent}: a client error, not a server error`).toBeLessThan(500);
    }
  });
}
