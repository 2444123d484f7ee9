import { expect } from 'vitest';
import { conformance, type ConformanceContext } from '../../fixtures/conformance.ts';
import { parseRateLimitPolicy } from '../../schemas/rate-limit-policy.ts';
import { expectWithinWindow } from '../../fixtures/rate-limits/header-units.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';
import { OPERATIONS, operationLabel, type Operation } from '../../harness/operations.ts';
import { failingRequest, prepareValidRequest, sendPrepared } from '../../fixtures/idempotency/eight-operations.ts';

const HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy'] as const;
/** Requests of every category, and provisioning: none may meet a bucket another test exhausts or measures. */
const buckets = { 'primary trigger': 'reads', 'primary configuration': 'reads', 'primary global': 'reads' } as const;
const INTEGER = /^\d+$/;

/** A successful and a failing response of the operation (the failing one where the operation has one). */
async function responsesOf(op: Operation, ctx: ConformanceContext): Promise<ApiResponse[]> {
  const valid = await prepareValidRequest(op, ctx);
  const responses = [await sendPrepared(ctx.api, valid, { retryOn429: false })];
  const failing = failingRequest(op, ctx.ids);
  if (failing) responses.push(await sendPrepared(ctx.api, failing, { retryOn429: false }));
  return responses;
}

for (const op of OPERATIONS) {
  const label = operationLabel(op);

  conformance('RL-01', `${label} responses carry the four RateLimit headers`, async (ctx) => {
    for (const res of await responsesOf(op, ctx)) {
      const missing = HEADERS.filter((h) => res.headers[h] === undefined);
      expect(missing, `the ${res.status} response of ${label} must carry ${HEADERS.join(', ')}; it lacks`).toEqual([]);
    }
  }, { buckets });

  conformance('RL-02', `${label} rate-limit headers are integers, with Remaining within the policy's burst`, async (ctx) => {
    const responses = (await responsesOf(op, ctx)).filter((res) => HEADERS.every((h) => res.headers[h] !== undefined));
    if (responses.length === 0) return ctx.notVerified('no response carried the RateLimit headers (RL-01)');
    for (const res of responses) {
      for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'] as const) {
        if (res.headers[h] !== undefined) expect(res.headers[h], `${h} of the ${res.status} response must be a non-negative integer`).toMatch(INTEGER);
      }
      const parsed = parseRateLimitPolicy(res.headers['ratelimit-policy']);
      expect(parsed.ok ? 'parses' : parsed.error, `RateLimit-Policy of the ${res.status} response must parse as <limit>;w=<seconds>;burst=<n>;… or "<name>";q=<quota>;w=<seconds>`).toBe('parses');
      if (!parsed.ok) continue;
      const remaining = Number(res.headers['ratelimit-remaining']);
      if (parsed.policy.burstStated) expect(remaining, `RateLimit-Remaining of the ${res.status} response must not exceed the policy's burst ${parsed.policy.burst}`).toBeLessThanOrEqual(parsed.policy.burst);
      expectWithinWindow(res, parsed.policy.w);
    }
  }, { buckets });
}

/** One operation of each category: trigger, configuration, global. */
const ONE_OF_EACH_CATEGORY = ['/v1/events/trigger', '/v1/environment-variables', '/v1/environments'].map((template) => OPERATIONS.find((op) => op.template === template)!);

/** Each category's RateLimit-Policy header, read off a valid request's answer, with its parse. */
async function policyOfEachCategory(ctx: ConformanceContext) {
  const policies = [];
  for (const op of ONE_OF_EACH_CATEGORY) {
    const [res] = await responsesOf(op, ctx);
    const header = res!.headers['ratelimit-policy'];
    policies.push({ label: operationLabel(op), header, parsed: parseRateLimitPolicy(header) });
  }
  return policies;
}

conformance(
  'RL-02',
  'RateLimit-Policy names w, burst, comment, category and cost on every category',
  async (ctx) => {
    for (const { label, header, parsed } of await policyOfEachCategory(ctx)) {
      if (!parsed.ok) return ctx.notVerified(`RateLimit-Policy of ${label} does not parse (RL-02): ${parsed.error}`);
      expect(parsed.missing, `RateLimit-Policy "${header}" of ${label} lacks parameters`).toEqual([]);
    }
  },
  { level: 'SHOULD', buckets },
);

// RULES.md's deployed configurations: every plan's burst is ⌊limit × 1.1⌋. A larger announced burst would also widen
// the envelope RL-05 judges against (burst + 600·t), so it is read here, on every category.
conformance(
  'RL-02',
  'RateLimit-Policy announces a burst of ⌊limit × 1.1⌋ on every category, as the deployed plans do',
  async (ctx) => {
    for (const { label, header, parsed } of await policyOfEachCategory(ctx)) {
      if (!parsed.ok) return ctx.notVerified(`RateLimit-Policy of ${label} does not parse (RL-02): ${parsed.error}`);
      if (!parsed.policy.burstStated) return ctx.notVerified(`RateLimit-Policy "${header}" of ${label} states no burst (the IETF form)`);
      const { limit, burst } = parsed.policy;
      expect(burst, `RateLimit-Policy "${header}" of ${label}: the burst of a limit of ${limit} is ⌊${limit} × 1.1⌋`).toBe(Math.floor(limit * 1.1));
    }
  },
  { level: 'SHOULD', buckets },
);
