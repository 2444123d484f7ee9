import { afterAll, expect, inject } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import type { Environment } from '../../harness/conformance/buckets.ts';
import { readBucket, RefillGate, sleep, timed, type Exhaustion } from '../../fixtures/rate-limits/bucket.ts';
import { BULK_COST, MAX_IN_FLIGHT, uniformPace, type DrainConditions } from '../../fixtures/rate-limits/drain-pace.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';

// RL-08: once the burst is spent, the bulk subscribers endpoint accepts 2 requests per second. The test drains
// the bucket, then offers far more than 2/s for a while and counts what is accepted. With a secondary key it uses
// that environment's configuration bucket, which the trigger-bucket tests running meanwhile do not touch.
const DOCUMENTED_RPS = 2;
const WINDOW_MS = 2_000;
const OFFER_INTERVAL_MS = 50;

const gate = new RefillGate();
afterAll(gate.publish);
const environment: Environment = inject('target').keys.secondary ? 'secondary' : 'primary';

conformance('RL-08', 'the bulk subscribers endpoint accepts about 2 requests per second once its burst is spent', async ({ api, ids, provision, target, notVerified }) => {
  const subscriberId = ids.slug('bulk');
  provision.withIdentity(environment).forgetSubscriber(subscriberId);
  const bulk = () => api.post('/v1/subscribers/bulk', { subscribers: [{ subscriberId, firstName: 'Conformance' }] }, { as: environment, retryOn429: false });

  const drainStarted = performance.now();
  const probe = await timed(bulk);
  if (probe.res.status === 404 || probe.res.status === 405) return notVerified(`the target does not offer POST /v1/subscribers/bulk (${probe.res.status})`);
  const reading = readBucket(probe.res);
  const burst = reading?.policy.burst ?? 1100;
  const drained = await drainBulk(bulk, { answerMs: probe.receivedAt - probe.sentAt, refillPerSecond: reading?.refillPerSecond ?? DOCUMENTED_RPS * BULK_COST, burst, left: reading?.remaining, budgetMs: target.timeouts.testMs * DRAIN_SHARE - (performance.now() - drainStarted) });
  gate.note(drained.lastBatch.at(-1) ?? probe.res, 6_000);
  if (drained.slow) return notVerified(drained.slow);
  expect(drained.rejected, `bulk subscriber creations must be limited: no 429 after ${drained.sent + 1} requests`).toBeDefined();

  // Offered on a schedule, not one after another: a slow answer must not slow the offer below the rate measured. Never
  // more in flight than the connections carry, so that every request counted leaves when it is sent, inside the window.
  const started = performance.now();
  const answers: Promise<ApiResponse>[] = [];
  let inFlight = 0;
  while (performance.now() - started < WINDOW_MS) {
    if (inFlight < MAX_IN_FLIGHT) {
      inFlight += 1;
      const answer = bulk().finally(() => (inFlight -= 1));
      // why: awaited once the window ends; a connection reset meanwhile is this test's transport fault, not an unhandled error of the run
      answer.catch(() => undefined);
      answers.push(answer);
    }
    await sleep(OFFER_INTERVAL_MS);
  }
  const seconds = (performance.now() - started) / 1000;
  const answered = await Promise.all(answers);
  gate.note(answered.at(-1), 6_000);
  const accepted = answered.filter((res) => res.status >= 200 && res.status < 300).length;
  for (const res of answered) if (res.status < 200 || res.status >= 300) expect(res.status, 'a bulk subscriber creation is either accepted or throttled (429)').toBe(429);
  const expected = DOCUMENTED_RPS * seconds;
  const [fewest, most] = [Math.floor(expected) - 1, Math.ceil(expected) + 1];
  const report = `${accepted} bulk subscriber creations accepted in ${seconds.toFixed(2)} s after the burst was spent (2 per second allows ${fewest}..${most})`;
  expect(accepted, `${report}: more than the documented limit`).toBeLessThanOrEqual(most);
  expect(accepted, `${report}: fewer than the documented limit`).toBeGreaterThanOrEqual(fewest);
}, { needs: ['drain'], buckets: { [`${environment} configuration`]: 'measures' } });

/** The share of timeouts.testMs the drain may take: the measuring window and its answers need the rest. */
const DRAIN_SHARE = 0.6;
/** Bulk requests a drain batch holds on a fast path (more only when the answers are slow). */
const LEAST_IN_FLIGHT = 4;

/**
 * Batches of bulk subscriber creations until one is refused, as many per batch as the answers' pace needs
 * (drain-pace.ts), re-read after each batch; bounded by twice the burst in requests. `slow` says why the path's pace
 * kept the bucket from running out, when it did.
 */
async function drainBulk(bulk: () => Promise<ApiResponse>, start: Omit<DrainConditions, 'maxInFlight'>): Promise<Exhaustion & { slow?: string }> {
  const deadline = performance.now() + start.budgetMs;
  let { answerMs, left } = start;
  let sent = 0;
  let lastBatch: ApiResponse[] = [];
  while (sent < 2 * Math.ceil(start.burst / BULK_COST) + 10) {
    const pace = uniformPace({ ...start, answerMs, left, budgetMs: deadline - performance.now(), maxInFlight: MAX_IN_FLIGHT, cost: BULK_COST, least: LEAST_IN_FLIGHT });
    if (!pace.ok) return { rejected: undefined, lastBatch, sent, slow: pace.reason };
    const batchSentAt = performance.now();
    lastBatch = await Promise.all(Array.from({ length: pace.inFlight }, () => bulk()));
    answerMs = performance.now() - batchSentAt;
    sent += pace.inFlight;
    const rejected = lastBatch.find((res) => res.status === 429);
    if (rejected) return { rejected, lastBatch, sent };
    const remaining = Math.min(...lastBatch.map((res) => readBucket(res)?.remaining ?? Number.POSITIVE_INFINITY));
    left = Number.isFinite(remaining) ? remaining : undefined;
  }
  return { rejected: undefined, lastBatch, sent };
}
