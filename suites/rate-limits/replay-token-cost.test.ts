import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { expectSuccess } from '../../fixtures/idempotency/eight-operations.ts';
import { freshKey, isReplay, withKey } from '../../fixtures/idempotency/keys.ts';
import { msUntilFull, readBucket, sleep } from '../../fixtures/rate-limits/bucket.ts';

// IDEM-08 lives with the rate-limit suites: RateLimit-Remaining only means something while no other test
// draws on the bucket, which the runner's bucket plan guarantees to tests that declare the bucket.
// Method: after the first (processed) request, wait until its bucket is full again. A full bucket reads
// Remaining = burst; a replay that draws a token reads at most burst - 1, however fast the bucket refills.
const REPLAYS = 10;

conformance('IDEM-08', 'replays of a keyed preference update leave a full bucket full', async ({ api, ids, provision, target, notVerified }) => {
  const subscriber = await provision.subscriber();
  const path = `/v2/subscribers/${subscriber.subscriberId}/preferences`;
  const body = { channels: { email: false } };
  const options = { ...withKey(freshKey(ids)), retryOn429: false };
  const first = await api.patch(path, body, options);
  expectSuccess(first, 'the first keyed preference update');
  const reading = readBucket(first);
  if (!reading) return notVerified('the response carries no readable RateLimit-Remaining and RateLimit-Policy (RL-01, RL-02)');
  if (!reading.policy.burstStated) return notVerified(`RateLimit-Policy "${first.headers['ratelimit-policy']}" states no burst (the IETF form): a full bucket cannot be recognised`);
  const { burst } = reading.policy;
  if (reading.remaining >= burst) return notVerified(`the processed request left Remaining at the burst (${burst}): Remaining does not show the tokens drawn (RL-03)`);
  const wait = msUntilFull(reading) + 100;
  if (wait > target.timeouts.maxRetryAfterS * 1000) return notVerified(`the bucket would take ${Math.round(wait)} ms to refill, more than timeouts.maxRetryAfterS`);
  await sleep(wait);

  const replays = await Promise.all(Array.from({ length: REPLAYS }, () => () => api.patch(path, body, options)).map((send) => send()));
  if (!replays.every(isReplay)) return notVerified('not every repeat was answered as a replay (IDEM-02)');
  const remaining = replays.map((r) => Number(r.headers['ratelimit-remaining']));
  if (remaining.every((r) => r === reading.remaining) && reading.remaining < burst) {
    return notVerified(`every replay repeats the first response's RateLimit-Remaining (${reading.remaining}): the bucket is not observable through replays`);
  }
  expect(remaining.filter((r) => r < burst), `with the bucket full (burst ${burst}), replays that draw no token read Remaining ${burst}; these replays read less, so they drew tokens, yet a replayed request counts once`).toEqual([]);
}, { buckets: { 'primary configuration': 'measures' } });
