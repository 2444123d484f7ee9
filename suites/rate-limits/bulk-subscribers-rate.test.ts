import { afterAll, expect, inject } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import type { Environment } from '../../harness/conformance/buckets.ts';
import { exhaust, readBucket, RefillGate, repeated, sleep } from '../../fixtures/rate-limits/bucket.ts';

// RL-08: once the burst is spent, the bulk subscribers endpoint accepts 2 requests per second. The test drains
// the bucket, then offers far more than 2/s for a while and counts what is accepted. With a secondary key it uses
// that environment's configuration bucket, which the trigger-bucket tests running meanwhile do not touch.
const DOCUMENTED_RPS = 2;
const WINDOW_MS = 2_000;
const OFFER_INTERVAL_MS = 50;
const BULK_COST = 100;

const gate = new RefillGate();
afterAll(gate.publish);
const environment: Environment = inject('target').keys.secondary ? 'secondary' : 'primary';

conformance('RL-08', 'the bulk subscribers endpoint accepts about 2 requests per second once its burst is spent', async ({ api, ids, provision, notVerified }) => {
  const subscriberId = ids.slug('bulk');
  provision.withIdentity(environment).forgetSubscriber(subscriberId);
  const bulk = () => api.post('/v1/subscribers/bulk', { subscribers: [{ subscriberId, firstName: 'Conformance' }] }, { as: environment, retryOn429: false });

  const probe = await bulk();
  if (probe.status === 404 || probe.status === 405) return notVerified(`the target does not offer POST /v1/subscribers/bulk (${probe.status})`);
  const burstRequests = Math.ceil((readBucket(probe)?.policy.burst ?? 1100) / BULK_COST);
  const drained = await exhaust(repeated(bulk, 4), 2 * burstRequests + 10);
  gate.note(drained.lastBatch.at(-1) ?? probe, 6_000);
  expect(drained.rejected, `bulk subscriber creations must be limited: no 429 after ${drained.sent + 1} requests`).toBeDefined();

  const started = performance.now();
  let accepted = 0;
  let last = probe;
  while (performance.now() - started < WINDOW_MS) {
    last = await bulk();
    if (last.status >= 200 && last.status < 300) accepted++;
    else expect(last.status, 'a bulk subscriber creation is either accepted or throttled (429)').toBe(429);
    await sleep(OFFER_INTERVAL_MS);
  }
  gate.note(last, 6_000);
  const seconds = (performance.now() - started) / 1000;
  const expected = DOCUMENTED_RPS * seconds;
  const [fewest, most] = [Math.floor(expected) - 1, Math.ceil(expected) + 1];
  const report = `${accepted} bulk subscriber creations accepted in ${seconds.toFixed(2)} s after the burst was spent (2 per second allows ${fewest}..${most})`;
  expect(accepted, `${report}: more than the documented limit`).toBeLessThanOrEqual(most);
  expect(accepted, `${report}: fewer than the documented limit`).toBeGreaterThanOrEqual(fewest);
}, { needs: ['drain'], buckets: { [`${environment} configuration`]: 'measures' } });
