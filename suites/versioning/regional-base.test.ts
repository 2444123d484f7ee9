// The regional base address serves the same interface under the same rules (VER-02): a representative set of
// checks, everything created there and removed there (a region may hold its own data).
import { expect } from 'vitest';
import { conformance, type ConformanceContext } from '../../fixtures/conformance.ts';
import { expectErrorResponse } from '../../harness/checks/error-body.ts';
import { postWorkflow } from '../../fixtures/workflows/workflow-requests.ts';

const regional = { regional: true } as const;
const needs = { needs: ['regionalBaseUrl'] } as const;

async function createRegionalWorkflow({ api, ids, cleanup }: ConformanceContext, fields: Record<string, unknown> = {}) {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'In-app', type: 'in_app' }], ...fields }, regional);
  return { workflowId, res };
}

conformance('VER-02', 'GET /v1/environments under the regional base answers 200 with environments', async ({ api }) => {
  const res = await api.get('/v1/environments', regional);
  expect(res.status, 'the regional base serves GET /v1/environments').toBe(200);
  expect(Array.isArray(res.data), `the regional base answers an array of environments, got ${res.text.slice(0, 200)}`).toBe(true);
  for (const environment of res.data) expect(environment).toMatchSchema('EnvironmentDto');
}, needs);

conformance('VER-02', 'a request without Authorization under the regional base gets 401 and the common error body', async ({ api }) => {
  const res = await api.get('/v1/environments', { ...regional, authorization: null });
  expectErrorResponse(res, 401, 'a regional request without an Authorization header');
}, needs);

conformance('VER-02', 'a workflow created under the regional base answers 201 and reads back there', async (ctx) => {
  const { workflowId, res } = await createRegionalWorkflow(ctx);
  expect(res.status, 'the regional base serves POST /v2/workflows with 201').toBe(201);
  expect(res.data).toMatchSchema('WorkflowResponseDto');
  const read = await ctx.api.get(`/v2/workflows/${encodeURIComponent(workflowId)}`, regional);
  expect(read.status, 'the workflow created under the regional base reads back there').toBe(200);
  expect(read.data.workflowId, 'the workflow read back is the one created').toBe(workflowId);
}, needs);

conformance('VER-02', 'an invalid workflowId under the regional base is rejected with 422', async (ctx) => {
  const { res } = await createRegionalWorkflow(ctx, { workflowId: 'not a slug!' });
  expect(res.status, 'the regional base applies the slug pattern (WF-04): 422').toBe(422);
}, needs);

conformance('VER-02', 'a trigger under the regional base answers 201 and processes', async (ctx) => {
  const { api, ids, cleanup } = ctx;
  const { workflowId, res: created } = await createRegionalWorkflow(ctx, { active: true });
  expect(created.status, 'setup: the regional base creates the workflow').toBe(201);
  const subscriberId = ids.slug('sub');
  cleanup.remove(`regional subscriber ${subscriberId}`, `/v2/subscribers/${encodeURIComponent(subscriberId)}`, regional);
  const res = await api.post('/v1/events/trigger', { name: workflowId, to: [{ subscriberId, firstName: 'Ada' }] }, regional);
  expect(res.status, 'the regional base serves POST /v1/events/trigger with 201').toBe(201);
  expect(res.data).toMatchSchema('TriggerEventResponseDto');
  expect(res.data.acknowledged, 'the regional trigger is acknowledged').toBe(true);
  expect(res.data.status, 'an active workflow with a step is processed (TRIG-01)').toBe('processed');
}, needs);

conformance('VER-02', 'an unknown workflow under the regional base gets 404 and the common error body', async ({ api, ids }) => {
  const res = await api.get(`/v2/workflows/${ids.slug('missing')}`, regional);
  expectErrorResponse(res, 404, 'a regional read of an unknown workflow');
}, needs);
