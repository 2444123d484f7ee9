import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';
import { TRIGGER_PATH } from '../../fixtures/trigger/trigger-effects.ts';
import { readBucket, sleep, timed, type Timed } from '../../fixtures/rate-limits/bucket.ts';
import { unverifiableByTarget } from '../../harness/conformance/target-answer.ts';

// RL-03: two sequential requests of one category; between them the bucket may refill, at most by
// limit/w tokens per second over the time span that contains both, and never above the burst.
const noRetry = { retryOn429: false } as const;
// Another test's requests on the measured bucket would show as cost; provisioning reads the configuration bucket.
const triggerCost = { 'primary trigger': 'measures', 'primary configuration': 'reads' } as const;
const configurationCost = { 'primary configuration': 'measures' } as const;
/** The longest the test waits for the bucket to hold a second request's cost (a burst under two bulk requests' cost). */
const MAX_REFILL_WAIT_MS = 5_000;

/** Tries a measurement again while a request of it is refused: other tests share the bucket, and a small plan (100/s) runs dry between them. */
async function expectCost(send: () => Promise<ApiResponse>, cost: number, what: string, notVerified: (reason: string) => never): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const refused = await measureCost(send, cost, what, notVerified, attempt === MEASURE_ATTEMPTS);
    if (!refused) return;
    await sleep(Math.max(1, Number(refused.headers['retry-after']) || 1) * 1000);
  }
}

const MEASURE_ATTEMPTS = 3;

async function measureCost(send: () => Promise<ApiResponse>, cost: number, what: string, notVerified: (reason: string) => never, last: boolean): Promise<ApiResponse | undefined> {
  const first: Timed = await timed(send);
  // A burst under twice the cost (a plan of 100/s, burst 110) cannot answer two bulk requests at once: wait for the
  // refill the second needs; the bounds below count the refill over the whole span, so they stay exact.
  const before = readBucket(first.res);
  const refillMs = before && before.remaining < cost ? ((cost - before.remaining) / before.refillPerSecond) * 1000 : 0;
  if (refillMs > MAX_REFILL_WAIT_MS) return notVerified(`${what}: the bucket would take ${Math.round(refillMs)} ms to hold a second request's cost`);
  await sleep(refillMs > 0 ? refillMs + 100 : 0);
  const second: Timed = await timed(send);
  const [a, b] = [readBucket(first.res), readBucket(second.res)];
  if (!a || !b) return unverifiableByTarget(`${what}: the cost`, 'no readable RateLimit-Remaining and RateLimit-Policy (RL-01, RL-02)');
  const refused = [first, second].find((t) => t.res.status < 200 || t.res.status >= 300);
  if (refused && !last) return refused.res;
  if (refused) return notVerified(`${what}: a request was not accepted (${refused.res.status}) in ${MEASURE_ATTEMPTS} tries, so its cost is not the one under test`);
  const elapsedMs = second.receivedAt - first.sentAt;
  const refill = a.refillPerSecond * (elapsedMs / 1000);
  // the IETF form states no burst: then only the refill bounds how far Remaining can climb
  const highest = Math.floor(Math.min(a.policy.burstStated ? a.policy.burst : Number.POSITIVE_INFINITY, a.remaining + 1 + refill) - cost);
  const lowest = a.remaining - cost;
  const context = `${what}: Remaining went from ${a.remaining} to ${b.remaining}; with a cost of ${cost} and at most ${refill.toFixed(1)} tokens refilled in ${elapsedMs.toFixed(0)} ms (burst ${a.policy.burstStated ? a.policy.burst : 'not stated'}) it must lie in [${lowest}, ${highest}]`;
  expect(b.remaining, `${context}: it fell by less than the cost`).toBeLessThanOrEqual(highest);
  expect(b.remaining, `${context}: it fell by more than the cost`).toBeGreaterThanOrEqual(lowest);
  return undefined;
}

conformance('RL-03', 'a standard trigger lowers RateLimit-Remaining by 1', async ({ api, provision, notVerified }) => {
  const workflow = await provision.workflow();
  const subscriber = await provision.subscriber();
  await expectCost(() => api.post(TRIGGER_PATH, { name: workflow.workflowId, to: [subscriber.subscriberId] }, noRetry), 1, 'two sequential triggers', notVerified);
}, { buckets: triggerCost });

conformance('RL-03', 'a bulk trigger lowers RateLimit-Remaining by 100', async ({ api, provision, notVerified }) => {
  const workflow = await provision.workflow();
  const subscriber = await provision.subscriber();
  const events = [{ name: workflow.workflowId, to: [subscriber.subscriberId] }];
  await expectCost(() => api.post(`${TRIGGER_PATH}/bulk`, { events }, noRetry), 100, 'two sequential bulk triggers (POST /v1/events/trigger/bulk)', notVerified);
}, { buckets: triggerCost });

conformance('RL-03', 'a bulk subscriber creation lowers RateLimit-Remaining by 100', async ({ api, ids, provision, notVerified }) => {
  const subscriberId = ids.slug('bulk');
  provision.forgetSubscriber(subscriberId);
  const body = { subscribers: [{ subscriberId, firstName: 'Conformance' }] };
  await expectCost(() => api.post('/v1/subscribers/bulk', body, noRetry), 100, 'two sequential bulk subscriber creations (POST /v1/subscribers/bulk)', notVerified);
}, { buckets: configurationCost });

conformance('RL-03', 'a standard configuration request lowers RateLimit-Remaining by 1', async ({ api, notVerified }) => {
  await expectCost(() => api.get('/v1/environment-variables', noRetry), 1, 'two sequential GET /v1/environment-variables', notVerified);
}, { buckets: configurationCost });
