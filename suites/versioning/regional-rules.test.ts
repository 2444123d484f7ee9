// VER-02 on every operation: the MUST rules a deployment can get wrong on one base only (its own gateway, rate
// limiter, auth middleware, body validation) run against the regional base as they run against the main one.
// Only requests that need no provisioned state go there: a region may hold its own data, and what is created there
// is removed there.
import { expect } from 'vitest';
import { conformance, type ConformanceContext } from '../../fixtures/conformance.ts';
import { expectErrorResponse } from '../../harness/checks/error-body.ts';
import { Skip } from '../../harness/conformance/skip.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';
import { OPERATIONS, operationLabel, type Operation } from '../../harness/operations.ts';
import { failingRequest, sendPrepared } from '../../fixtures/idempotency/eight-operations.ts';
import { IdFactory } from '../../harness/conformance/ids.ts';
import { postWorkflow } from '../../fixtures/workflows/workflow-requests.ts';
import { parseRateLimitPolicy } from '../../schemas/rate-limit-policy.ts';

const regional = { regional: true } as const;
const needs = { needs: ['regionalBaseUrl'] } as const;
const MAX_RECIPIENTS = 100;
const RATE_LIMIT_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy'] as const;
const INTEGER = /^\d+$/;
/** Credentials that are none (AUTH-01) or not acceptable (AUTH-02). */
const REFUSED_CREDENTIALS = [
  { what: 'without Authorization', authorization: null },
  { what: 'with an unknown key (`ApiKey nope`)', authorization: 'ApiKey nope' },
  { what: 'with an empty key (`ApiKey `)', authorization: 'ApiKey ' },
] as const;

/** ERR-09: a JSON answer is labelled application/json (charset allowed). */
function expectJson(res: ApiResponse, why: string): void {
  expect(res.headers['content-type'] ?? '(none)', `${why}: a JSON answer carries Content-Type application/json (ERR-09)`).toMatch(/^application\/json\s*(;|$)/i);
}

/** Answers of the operation on the regional base that need no provisioning: its handler's failure, and GET's success. */
async function regionalAnswers(op: Operation, { api, ids }: ConformanceContext): Promise<ApiResponse[]> {
  const answers: ApiResponse[] = [];
  const failing = failingRequest(op, ids);
  if (failing) answers.push(await sendPrepared(api, failing, { ...regional, retryOn429: false }));
  if (op.method === 'GET') answers.push(await api.get(op.template, { ...regional, retryOn429: false }));
  return answers;
}

for (const op of OPERATIONS) {
  const label = operationLabel(op);

  conformance('VER-02', `${label} under the regional base refuses missing and unacceptable credentials with 401 and the common error body in JSON`, async ({ api, target }) => {
    for (const { what, authorization } of REFUSED_CREDENTIALS) {
      const body = op.sampleBody?.(target.runPrefix);
      const res = await api.request(op.method, op.samplePath, { ...regional, authorization, ...(body !== undefined ? { body } : {}) });
      expectErrorResponse(res, 401, `${label} under the regional base ${what} (AUTH-01, AUTH-02)`);
      expectJson(res, `${label} under the regional base ${what}`);
    }
  }, needs);

  // why: only whether the operation has a request that fails in its handler (all but GET /v1/environments)
  if (failingRequest(op, new IdFactory('probe'))) {
    conformance('VER-02', `${label} failing in its handler under the regional base answers as the main base does, with the common error body in JSON`, async ({ api, ids }) => {
      const request = failingRequest(op, ids)!;
      const [main, there] = [await sendPrepared(api, request, { retryOn429: false }), await sendPrepared(api, request, { ...regional, retryOn429: false })];
      expect(there.status, `${label}: the regional base answers the request the main base answers ${main.status} with the same status`).toBe(main.status);
      if (there.status === 422) expect(there.data?.errors, `${label}: the regional 422 carries the validation error map (ERR-02)`).toBeTypeOf('object');
      expectErrorResponse(there, main.status, `${label} failing in its handler under the regional base (ERR-01)`);
      expectJson(there, `${label} failing in its handler under the regional base`);
    }, needs);
  }

  conformance('VER-02', `${label} responses under the regional base carry the RateLimit headers as integers, Remaining within the policy's burst`, async (ctx) => {
    if (!ctx.target.features.rateLimiting) throw new Skip('not-applicable', 'the target declares rate limiting off (features.rateLimiting: false)');
    for (const res of await regionalAnswers(op, ctx)) {
      const what = `the regional ${res.status} answer of ${label}`;
      const missing = RATE_LIMIT_HEADERS.filter((h) => res.headers[h] === undefined);
      expect(missing, `${what} must carry ${RATE_LIMIT_HEADERS.join(', ')} (RL-01); it lacks`).toEqual([]);
      for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'] as const) expect(res.headers[h], `${h} of ${what} is a non-negative integer (RL-02)`).toMatch(INTEGER);
      const parsed = parseRateLimitPolicy(res.headers['ratelimit-policy']);
      expect(parsed.ok ? 'parses' : parsed.error, `RateLimit-Policy of ${what} names the limit and the window (RL-02)`).toBe('parses');
      // the IETF form states no burst: Remaining has no bound to read there
      if (parsed.ok && parsed.policy.burstStated) expect(Number(res.headers['ratelimit-remaining']), `RateLimit-Remaining of ${what} is within the policy's burst (RL-02)`).toBeLessThanOrEqual(parsed.policy.burst);
    }
  }, needs);
}

/** A workflow created in the region (removed there), and a trigger sender of it under the regional base. */
async function regionalTrigger({ api, ids, cleanup }: ConformanceContext) {
  const workflowId = ids.slug('wf');
  const created = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, active: true, steps: [{ name: 'In-app', type: 'in_app' }] }, regional);
  expect(created.status, 'setup: the regional base creates the workflow').toBe(201);
  return (to: unknown[]) => api.post('/v1/events/trigger', { name: workflowId, to }, regional);
}

/** Fresh subscriber objects; each subscriber a trigger may create in the region is removed there. */
function regionalRecipients({ ids, cleanup }: ConformanceContext, n: number, tag: string) {
  return Array.from({ length: n }, () => {
    const subscriberId = ids.slug(tag);
    cleanup.remove(`regional subscriber ${subscriberId}`, `/v2/subscribers/${encodeURIComponent(subscriberId)}`, regional);
    return { subscriberId, firstName: 'Ada' };
  });
}

conformance('VER-02', `a trigger under the regional base with ${MAX_RECIPIENTS + 1} recipients, as objects or as id strings, is rejected and creates none of them (TRIG-02)`, async (ctx) => {
  const trigger = await regionalTrigger(ctx);
  const objects = regionalRecipients(ctx, MAX_RECIPIENTS + 1, 'obj');
  const strings = regionalRecipients(ctx, MAX_RECIPIENTS + 1, 'str').map((r) => r.subscriberId);
  for (const [form, to] of [['subscriber objects', objects], ['subscriber-id strings', strings]] as const) {
    const res = await trigger(to);
    expect(res.status, `a regional trigger with ${MAX_RECIPIENTS + 1} ${form} is rejected with a 4xx (TRIG-02)`).toBeGreaterThanOrEqual(400);
    expect(res.status, `a regional trigger with ${MAX_RECIPIENTS + 1} ${form} is rejected with a 4xx, not a 5xx (TRIG-02)`).toBeLessThan(500);
  }
  for (const { subscriberId } of [objects[0]!, objects.at(-1)!]) {
    const read = await ctx.api.get(`/v2/subscribers/${encodeURIComponent(subscriberId)}`, regional);
    expect(read.status, `a rejected regional trigger creates none of its recipients: subscriber ${subscriberId} must not exist`).toBe(404);
  }
}, needs);

conformance('VER-02', `a trigger under the regional base with exactly ${MAX_RECIPIENTS} recipients is accepted and processed (TRIG-02)`, async (ctx) => {
  const trigger = await regionalTrigger(ctx);
  const res = await trigger(regionalRecipients(ctx, MAX_RECIPIENTS, 'hundred'));
  expect(res.status, `a regional trigger with exactly ${MAX_RECIPIENTS} recipients is accepted with 201 (TRIG-02)`).toBe(201);
  expect(res.data?.status, `a regional ${MAX_RECIPIENTS}-recipient trigger of an active workflow with steps is processed`).toBe('processed');
}, needs);
