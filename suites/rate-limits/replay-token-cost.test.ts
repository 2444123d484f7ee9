import { expect } from 'vitest';
import { conformance } from '../../harness/conformance/conformance.ts';
import { expectSuccess } from '../idempotency/eight-operations.ts';
import { freshKey, isReplay, withKey } from '../idempotency/keys.ts';
import { readBucket, timed } from './bucket.ts';

// IDEM-08 lives with the rate-limit suites: RateLimit-Remaining only means something while no other test
// draws on the bucket, which the runner guarantees for this directory alone.
const REPLAYS = 20;

conformance('IDEM-08', `${REPLAYS} concurrent replays of a keyed preference update do not lower RateLimit-Remaining`, async ({ api, ids, provision, notVerified }) => {
  const subscriber = await provision.subscriber();
  const path = `/v2/subscribers/${subscriber.subscriberId}/preferences`;
  const body = { channels: { email: false } };
  const options = { ...withKey(freshKey(ids)), retryOn429: false };
  expectSuccess(await api.patch(path, body, options), 'the first keyed preference update');

  // Released together, the replays are answered within a few milliseconds: if each drew a token, their
  // Remaining values would spread over about REPLAYS tokens; without a cost they differ only by the refill.
  const sends = Array.from({ length: REPLAYS }, () => () => timed(() => api.patch(path, body, options)));
  const replays = await Promise.all(sends.map((send) => send()));
  if (!replays.every((r) => isReplay(r.res))) return notVerified('not every repeat was answered as a replay (IDEM-02)');
  const readings = replays.map((r) => readBucket(r.res));
  if (readings.some((r) => r === undefined)) return notVerified('replays carry no readable RateLimit-Remaining and RateLimit-Policy');
  const remaining = readings.map((r) => r!.remaining);
  const spanMs = Math.max(...replays.map((r) => r.receivedAt)) - Math.min(...replays.map((r) => r.sentAt));
  const refill = readings[0]!.refillPerSecond * (spanMs / 1000);
  if (refill + 1 >= REPLAYS / 2) return notVerified(`the bucket refills ${refill.toFixed(1)} tokens in the ${spanMs.toFixed(0)} ms the replays take, which would hide their cost`);
  const spread = Math.max(...remaining) - Math.min(...remaining);
  expect(spread, `${REPLAYS} replays answered within ${spanMs.toFixed(0)} ms report RateLimit-Remaining from ${Math.min(...remaining)} to ${Math.max(...remaining)}: replays appear to draw tokens, but a replayed request counts once`).toBeLessThan(REPLAYS / 2);
});
