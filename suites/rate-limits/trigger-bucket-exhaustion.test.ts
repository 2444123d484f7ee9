import { afterAll, expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { parseRateLimitPolicy } from '../../schemas/rate-limit-policy.ts';
import type { Provisioner } from '../../fixtures/provision.ts';
import type { ApiClient, ApiResponse, Identity } from '../../harness/http/api-client.ts';
import type { TargetProfile } from '../../harness/target-profile.ts';
import { TRIGGER_PATH } from '../../fixtures/trigger/trigger-effects.ts';
import { readBucket, RefillGate, sendBatch, sleep, timed, type Exhaustion } from '../../fixtures/rate-limits/bucket.ts';
import { BULK_COST, drainPace, MAX_IN_FLIGHT, PACE_MARGIN } from '../../fixtures/rate-limits/drain-pace.ts';
import { freshKey, withKey } from '../../fixtures/idempotency/keys.ts';
import { expectWithinWindow } from '../../fixtures/rate-limits/header-units.ts';
import type { IdFactory } from '../../harness/conformance/ids.ts';
import { secondsToWait, unverifiableByTarget } from '../../harness/conformance/target-answer.ts';

// Every test here drains the trigger bucket of the primary environment. A drained bucket is what each of them
// needs, so they share it: the first drain empties it and the next ones find it empty. RL-07 alone needs the
// bucket to itself, to see its trigger accepted after the Retry-After. Provisioning reads the configuration bucket.
const gate = new RefillGate();
afterAll(gate.publish);

type Send = () => Promise<ApiResponse>;
/** The share of timeouts.testMs a drain may take when it is all the test does, and when the test goes on after it. */
const DRAIN_ALONE = 0.7;
const DRAIN_THEN_MORE = 0.4;
/** The share of timeouts.testMs after which a test that keeps the bucket drained stops sending. */
const KEEP_DRAINED_UNTIL = 0.85;
interface Sender {
  single: Send;
  bulk: Send;
  /** The single trigger with an Idempotency-Key. */
  keyed: (key: string) => Promise<ApiResponse>;
  /** The bulk trigger with an Idempotency-Key. */
  keyedBulk: (key: string) => Promise<ApiResponse>;
}

/** Triggers (single and bulk of one event) of a workflow provisioned in the environment of `as`. */
async function triggerSender(api: ApiClient, provision: Provisioner, as: Identity = 'primary'): Promise<Sender> {
  const own = provision.withIdentity(as);
  const workflow = await own.workflow();
  const subscriber = await own.subscriber();
  const event = { name: workflow.workflowId, to: [subscriber.subscriberId] };
  return {
    single: () => api.post(TRIGGER_PATH, event, { as, retryOn429: false }),
    bulk: () => api.post(`${TRIGGER_PATH}/bulk`, { events: [event] }, { as, retryOn429: false }),
    keyed: (key) => api.post(TRIGGER_PATH, event, { as, retryOn429: false, ...withKey(key) }),
    keyedBulk: (key) => api.post(`${TRIGGER_PATH}/bulk`, { events: [event] }, { as, retryOn429: false, ...withKey(key) }),
  };
}

interface Drain extends Exhaustion {
  /** Why no 429 came, when none did: the road's pace (not verified), or a bucket that never ran out (RL-04). */
  whyNot: string;
  /** Set when the answers' pace kept the bucket from running out: then no 429 says nothing about the limit. */
  slow?: string;
  /** A bulk trigger's 429 (fewer than 100 tokens left), kept for when the drain is slow: see `anyRefusal`. */
  bulkRefused?: ApiResponse;
  /** Bulk triggers per batch that kept pace: the tests that keep the bucket drained afterwards lead with as many. */
  bulks: number;
  /** When a test that keeps the bucket drained afterwards stops sending (performance.now()). */
  keepUntil: number;
}

/**
 * Drains the trigger bucket with batches of single triggers led by bulk triggers (cost 100, same category): the bulk
 * ones take the bucket down whenever it holds 100 tokens, so the single ones reach a 429 even when they are sent slower
 * than the bucket refills. How many bulks a batch holds follows the answers' time (drain-pace.ts), re-read after every
 * batch; the drain takes at most `share` of timeouts.testMs. Bounded by twice the announced burst in requests (the
 * documented rate × 5.5 s when no policy is announced). The rejection looked for is a single trigger's 429.
 */
async function drainTriggers(trigger: Sender, target: TargetProfile, share = DRAIN_THEN_MORE): Promise<Drain> {
  const started = performance.now();
  const deadline = started + target.timeouts.testMs * share;
  const keepUntil = started + target.timeouts.testMs * KEEP_DRAINED_UNTIL;
  const probe = await timed(trigger.single);
  const reading = readBucket(probe.res);
  const burst = reading?.policy.burst ?? Math.floor(target.limits.triggerRps * 5.5);
  const refill = reading?.refillPerSecond ?? target.limits.triggerRps;
  let bulkRefused: ApiResponse | undefined;
  const ended = (drain: Exhaustion & { slow?: string }, bulks: number): Drain => {
    gate.note(drain.lastBatch.at(-1) ?? probe.res, (burst / target.limits.triggerRps) * 1000);
    return { ...drain, whyNot: drain.slow ?? 'the trigger bucket could not be exhausted (RL-04)', bulks, keepUntil, bulkRefused };
  };
  if (probe.res.status === 429) return ended({ rejected: probe.res, lastBatch: [probe.res], sent: 1 }, MIN_BULKS);
  let answerMs = probe.receivedAt - probe.sentAt;
  let left = reading?.remaining;
  let [sent, offered, accepted] = [1, 1, isAccepted(probe.res) ? 1 : 0];
  let lastBatch: ApiResponse[] = [probe.res];
  let bulks = MIN_BULKS;
  while (sent < 2 * burst) {
    const pace = drainPace({ answerMs, refillPerSecond: refill, burst, left, budgetMs: deadline - performance.now(), maxInFlight: MAX_IN_FLIGHT, leastBulks: bulks });
    if (!pace.ok) return ended({ rejected: undefined, lastBatch, sent, slow: pace.reason }, bulks);
    bulks = pace.bulks;
    const costs = Array.from({ length: pace.inFlight }, (_, i) => (i < bulks ? BULK_COST : 1));
    const batchSentAt = performance.now();
    // a request the network lost is left out: the drain needs the bucket spent, not every answer
    const answers = await sendBatch(costs.map((cost) => (cost === BULK_COST ? trigger.bulk : trigger.single)));
    lastBatch = answers.filter((res): res is ApiResponse => res !== undefined);
    answerMs = performance.now() - batchSentAt;
    sent += costs.length;
    // why: a bulk trigger refused for want of 100 tokens spends none; only the single triggers can take the rest
    // (fewer than 100) out, and singles that arrive no faster than the refill never do (a busy machine spreads them)
    offered += sum(costs.filter((cost, i) => cost === 1 || answers[i]?.status !== 429));
    accepted += sum(costs.filter((_, i) => answers[i] !== undefined && isAccepted(answers[i])));
    const rejected = answers.find((res, i) => i >= bulks && res?.status === 429);
    if (rejected) return ended({ rejected, lastBatch, sent }, bulks);
    bulkRefused = answers.find((res, i) => i < bulks && res?.status === 429) ?? bulkRefused;
    const elapsedS = (performance.now() - started) / 1000;
    // A bucket that accepted more than it holds and refills, with room to spare, never ran out: RL-04 is judged.
    if (accepted > PACE_MARGIN * (burst + refill * elapsedS)) return ended({ rejected: undefined, lastBatch, sent }, bulks);
    left = Math.min(...lastBatch.map((res) => readBucket(res)?.remaining ?? Number.POSITIVE_INFINITY));
    if (!Number.isFinite(left)) left = undefined;
  }
  return ended({ rejected: undefined, lastBatch, sent, slow: slowerThanRefill(offered / ((performance.now() - started) / 1000), refill) }, bulks);
}

const MIN_BULKS = 2;
const isAccepted = (res: ApiResponse) => res.status >= 200 && res.status < 300;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * A drain that offered no more tokens per second than the bucket refills could not empty it, whatever the target
 * does: the requests reached it too slowly (a slow or jittery path, or a slow target). Then no 429 proves nothing.
 */
function slowerThanRefill(offeredPerSecond: number, refillPerSecond: number): string | undefined {
  if (offeredPerSecond > refillPerSecond * DRAIN_MARGIN) return undefined;
  return `the triggers reached the target at ${Math.round(offeredPerSecond)} tokens/s, not clearly faster than the ${Math.round(refillPerSecond)}/s its bucket refills at: the network, the target's pace or this machine's kept the bucket from running out, not a verdict about the limit`;
}

/** How much faster than the refill a drain must offer tokens for a missing 429 to say something about the limit. */
const DRAIN_MARGIN = 1.5;

/**
 * The 429 to judge where any refusal for lack of tokens will do (RL-02, RL-04, RL-07): a single trigger's; else, when the
 * path's pace kept the single ones from meeting an empty bucket (a jittery path spreads a batch out, and the bucket
 * refills between the singles' arrivals), a bulk trigger's, refused with fewer than its 100 tokens left.
 */
function anyRefusal(drain: Drain): ApiResponse | undefined {
  return drain.rejected ?? (drain.slow ? drain.bulkRefused : undefined);
}

/** Single triggers answered 429 while the other requests were in flight: enough that, were the buckets one, the other
 * requests would have met a 429 too (they arrive among the triggers and would draw on the same tokens). */
const THROTTLED_TRIGGERS_SOUGHT = 24;

/**
 * Requests of other kinds fired in the same batches as bulk-led triggers (as many bulks as the drain needed to keep
 * pace), so that the trigger bucket stays drained meanwhile; batches repeat until THROTTLED_TRIGGERS_SOUGHT single
 * triggers among them were answered 429 (at most `maxRounds`, and not past the drain's `keepUntil`). Not the first 429
 * alone: on a loaded machine a batch trickles in, a drained bucket refills between its requests, and one throttled
 * trigger beside six answered requests says little about one shared bucket.
 */
async function amidThrottledTriggers(trigger: Sender, drain: Drain, others: Record<string, Send>, maxRounds = 20): Promise<{ triggersThrottled: boolean; others: [string, ApiResponse][] }> {
  const answered: [string, ApiResponse][] = [];
  let throttled = 0;
  let last: ApiResponse | undefined;
  for (let round = 0; round < maxRounds && throttled < THROTTLED_TRIGGERS_SOUGHT && (round === 0 || performance.now() < drain.keepUntil); round++) {
    // why: the bulks and the other requests fit the connections together, else some of the others queue for a round trip
    const bulks = Math.max(MIN_BULKS, Math.min(drain.bulks, MAX_IN_FLIGHT - 12 * Object.keys(others).length));
    const sends: [string, Send][] = Array.from({ length: bulks }, (): [string, Send] => ['bulk', trigger.bulk]);
    for (let i = 0; i < 3; i++) {
      for (const entry of Object.entries(others)) sends.push(['trigger', trigger.single], ['trigger', trigger.single], ['trigger', trigger.single], entry);
    }
    sends.push(...Array.from({ length: Math.max(6, MAX_IN_FLIGHT - sends.length) }, (): [string, Send] => ['trigger', trigger.single]));
    const responses = await sendBatch(sends.map(([, send]) => send));
    sends.forEach(([label], i) => label !== 'trigger' && label !== 'bulk' && responses[i] && answered.push([label, responses[i]]));
    throttled += sends.filter(([label], i) => label === 'trigger' && responses[i]?.status === 429).length;
    last = responses.findLast((res) => res !== undefined);
  }
  if (throttled > 0) gate.note(last, 6_000);
  return { triggersThrottled: throttled > 0, others: answered };
}

conformance('RL-04', 'an exhausted trigger bucket answers 429 with Retry-After and "API rate limit exceeded"', async ({ api, provision, target, notVerified }) => {
  const drain = await drainTriggers(await triggerSender(api, provision), target, DRAIN_ALONE);
  const { sent, slow } = drain;
  const rejected = anyRefusal(drain);
  if (!rejected && slow) return notVerified(slow);
  expect(rejected, `the trigger bucket must run out: no 429 after ${sent} triggers (twice the announced burst, or more tokens accepted than the bucket holds and refills with room to spare)`).toBeDefined();
  expect(rejected!.headers['retry-after'] ?? '(no Retry-After)', 'a 429 must carry Retry-After in whole seconds').toMatch(/^\d+$/);
  const policy = parseRateLimitPolicy(rejected!.headers['ratelimit-policy']);
  if (policy.ok) expect(Number(rejected!.headers['retry-after']), `Retry-After is the seconds to wait, within the policy's window of ${policy.policy.w} s (not milliseconds, not an absolute time)`).toBeLessThanOrEqual(policy.policy.w);
  expect(rejected!.json, `the 429 body must be the JSON string "API rate limit exceeded" or a common error body with that message; got ${rejected!.text.slice(0, 200)}`).toMatchSchema(
    'RateLimitExceededBody',
  );
}, { needs: ['drain'], buckets: { 'primary trigger': 'drains', 'primary configuration': 'reads' } });

conformance('RL-02', "a 429's Retry-After and RateLimit-Reset are seconds to wait, within the policy's window", async ({ api, provision, target, notVerified }) => {
  const drain = await drainTriggers(await triggerSender(api, provision), target, DRAIN_ALONE);
  const rejected = anyRefusal(drain);
  if (!rejected) return notVerified(`no 429 to read: ${drain.whyNot}`);
  const parsed = parseRateLimitPolicy(rejected.headers['ratelimit-policy']);
  if (!parsed.ok) return notVerified(`the 429 names no window to judge its wait against: ${parsed.error} (RL-01, and the RL-02 test of every operation)`);
  expect(rejected.headers['retry-after'] ?? '(no Retry-After)', 'a 429 carries Retry-After, a non-negative integer of seconds').toMatch(/^\d+$/);
  expectWithinWindow(rejected, parsed.policy.w);
}, { needs: ['drain'], buckets: { 'primary trigger': 'drains', 'primary configuration': 'reads' } });

// Remaining means what it says: with the bucket out of tokens, an answer said so before (or the 429 does) — never "1 left".
conformance('RL-03', 'a single trigger refused with 429 for lack of tokens comes after, or itself carries, RateLimit-Remaining 0', async ({ api, provision, target, notVerified }) => {
  const { rejected, lastBatch, whyNot } = await drainTriggers(await triggerSender(api, provision), target, DRAIN_ALONE);
  if (!rejected) return notVerified(`no 429 to read: ${whyNot}`);
  const remaining = lastBatch.map((res) => res.headers['ratelimit-remaining']).filter((r): r is string => r !== undefined);
  if (remaining.length === 0) return notVerified('the drained batch carries no RateLimit-Remaining (RL-01)');
  const zero = rejected.headers['ratelimit-remaining'] === '0' || remaining.includes('0');
  expect(zero, `a single trigger was refused with 429 (Remaining "${rejected.headers['ratelimit-remaining']}") while no answer of its batch said Remaining 0 (they said ${[...new Set(remaining)].slice(0, 8).join(', ')}): Remaining was higher than the tokens left`).toBe(true);
}, { needs: ['drain'], buckets: { 'primary trigger': 'drains', 'primary configuration': 'reads' } });

// Not one trigger of the batch was throttled: the requests reached the target slower than its bucket refills.
const SLOW_PATH = 'the network (the path to the target is slower than the bucket refills), not a verdict about the target';

conformance('RL-06', 'with the trigger bucket exhausted, configuration and global requests still succeed', async ({ api, provision, target, notVerified }) => {
  const trigger = await triggerSender(api, provision);
  // What the other categories' own buckets hold before the drain: only more requests than that could exhaust them.
  const ownBudget: Record<string, number> = {
    configuration: Number((await api.get('/v1/environment-variables', { retryOn429: false })).headers['ratelimit-remaining'] ?? 0),
    global: Number((await api.get('/v1/environments', { retryOn429: false })).headers['ratelimit-remaining'] ?? 0),
  };
  const drain = await drainTriggers(trigger, target);
  if (!drain.rejected) return notVerified(drain.whyNot);
  const others = { 'GET /v1/environment-variables (configuration)': () => api.get('/v1/environment-variables', { retryOn429: false }), 'GET /v1/environments (global)': () => api.get('/v1/environments', { retryOn429: false }) };
  const mixed = await amidThrottledTriggers(trigger, drain, others);
  for (const [label, res] of mixed.others) {
    // A 429 from the request's own (configuration/global) bucket is not the trigger bucket's doing.
    const category = parseRateLimitPolicy(res.headers['ratelimit-policy']);
    const own = category.ok ? category.policy.category : undefined;
    const sentInCategory = mixed.others.filter(([l]) => own !== undefined && l.includes(`(${own})`)).length;
    if (res.status === 429 && own !== undefined && own !== 'trigger' && sentInCategory >= (ownBudget[own] ?? 0)) {
      return notVerified(`${label} may have exhausted its own ${own} bucket (${sentInCategory} requests against ${ownBudget[own]} tokens), so the trigger bucket's effect could not be seen`);
    }
    expect(res.status, `${label}, sent together with triggers of an exhausted bucket, must not be throttled by the trigger bucket`).not.toBe(429);
    expect(res.status, `${label} while the trigger bucket is exhausted`).toBe(200);
  }
  if (!mixed.triggersThrottled) return notVerified(`the trigger bucket refilled before the other categories were asked: ${SLOW_PATH}`);
}, { needs: ['drain'], buckets: { 'primary trigger': 'drains', 'primary configuration': 'reads', 'primary global': 'reads' } });

conformance('RL-09', "exhausting one environment's trigger bucket leaves another environment's triggers unthrottled", async ({ api, provision, target, notVerified }) => {
  const trigger = await triggerSender(api, provision);
  const otherEnvironment = await triggerSender(api, provision, 'secondary');
  const drain = await drainTriggers(trigger, target);
  if (!drain.rejected) return notVerified(drain.whyNot);
  const mixed = await amidThrottledTriggers(trigger, drain, { "a trigger with the secondary environment's key": otherEnvironment.single });
  const throttled = mixed.others.filter(([, res]) => res.status === 429).length;
  expect(throttled, `triggers of another environment, sent together with the primary environment's throttled triggers, were throttled ${throttled} of ${mixed.others.length} times`).toBe(0);
  if (!mixed.triggersThrottled) return notVerified(`the primary trigger bucket refilled before the secondary environment was asked: ${SLOW_PATH}`);
}, {
  needs: ['drain', 'secondaryKey'],
  buckets: { 'primary trigger': 'drains', 'primary configuration': 'reads', 'secondary trigger': 'reads', 'secondary configuration': 'reads' },
});

// The wait after a plain trigger's 429, and after a keyed one's: a refused request was not processed, so its
// Idempotency-Key must not hold its retry off (the key's in-flight mark, IDEM-03, ends with the 429; the deployed service
// throttles before it looks at the key). One wait serves both: each is a second of the rate-limit phase.
conformance('RL-07', 'after waiting Retry-After seconds a trigger is accepted again', async ({ api, provision, ids, target, notVerified }) => {
  const trigger = await triggerSender(api, provision);
  const drain = await drainTriggers(trigger, target);
  const rejected = anyRefusal(drain);
  if (!rejected) return notVerified(drain.whyNot);
  // a request of the refused one's cost: bulk triggers when only a bulk one met the bucket empty
  const again = rejected === drain.rejected ? trigger.single : trigger.bulk;
  const refused = await refusedKeyedTrigger(trigger, drain, ids, again === trigger.bulk);
  const bulk = refused?.bulk ?? again === trigger.bulk;
  const last = refused?.res ?? rejected;
  // A wait in another unit, or none, is the target's doing: the test fails rather than ends not verified.
  const policy = parseRateLimitPolicy(last.headers['ratelimit-policy']);
  const named = last.headers['retry-after'] !== undefined ? 'Retry-After' : 'RateLimit-Reset';
  const wait = secondsToWait(last.headers[named.toLowerCase()], named === 'Retry-After' ? named : 'Retry-After (nor RateLimit-Reset)', policy.ok ? policy.policy.w : undefined);
  if (wait > target.timeouts.maxRetryAfterS) return notVerified(`Retry-After ${wait} s exceeds timeouts.maxRetryAfterS`);
  await sleep(wait * 1000);
  // why: the wait promises tokens for one request of the refused one's cost; two single triggers fit in any whole
  // second, a bulk one and another may not: after a keyed bulk one's 429, its retry alone (it is a request of that cost)
  const keyedAgain = bulk ? trigger.keyedBulk : trigger.keyed;
  const [res, keyed] = refused?.bulk ? [undefined, await keyedAgain(refused.key)] : await Promise.all([again(), refused ? keyedAgain(refused.key) : undefined]);
  if (res) {
    const afterWait = `a ${bulk ? 'bulk ' : ''}trigger sent ${wait} s (the 429's Retry-After) after the 429 must be accepted`;
    expect(res.status, afterWait).toBeGreaterThanOrEqual(200);
    expect(res.status, afterWait).toBeLessThan(300);
  }
  if (!refused || !keyed) return notVerified(`no keyed trigger was refused with 429 while the bucket was kept drained, so its retry could not be sent: ${SLOW_PATH}`);
  const what = `a keyed ${bulk ? 'bulk ' : ''}trigger refused with 429 was not processed; sent again with the same Idempotency-Key ${wait} s (the 429's Retry-After) later it must be accepted, got ${keyed.status}`;
  expect(keyed.status, what).toBeGreaterThanOrEqual(200);
  expect(keyed.status, what).toBeLessThan(300);
}, { needs: ['drain'], buckets: { 'primary trigger': 'measures', 'primary configuration': 'reads' } });

/**
 * Batches as the drain's, but every trigger keyed (a fresh key each), keep the bucket drained until a keyed one is
 * refused: a single one's 429 is taken first; else a bulk one's (refused below 100 tokens), which a jittery path,
 * whose single triggers seldom meet the bucket empty, still gives. Bulk ones alone when only bulk ones met it empty.
 */
async function refusedKeyedTrigger(trigger: Sender, drain: Drain, ids: IdFactory, onlyBulk: boolean): Promise<{ key: string; res: ApiResponse; bulk: boolean } | undefined> {
  const singles = onlyBulk ? 0 : MAX_IN_FLIGHT - drain.bulks;
  for (let round = 0; round < 20 && (round === 0 || performance.now() < drain.keepUntil); round++) {
    const keys = Array.from({ length: drain.bulks + singles }, () => freshKey(ids));
    const responses = await sendBatch(keys.map((key, i) => () => (i < drain.bulks ? trigger.keyedBulk(key) : trigger.keyed(key))));
    gate.note(responses.findLast((res) => res !== undefined), 6_000);
    const refusedSingle = responses.findIndex((res, i) => i >= drain.bulks && res?.status === 429);
    const i = refusedSingle >= 0 ? refusedSingle : responses.findIndex((res) => res?.status === 429);
    if (i >= 0) return { key: keys[i]!, res: responses[i]!, bulk: i < drain.bulks };
  }
  return undefined;
}

conformance('RL-07', "after waiting the RateLimit-Reset of an accepted bulk trigger that left less than its cost, a bulk trigger is accepted", async ({ api, provision, target, notVerified }) => {
  const trigger = await triggerSender(api, provision);
  const drain = await drainTriggers(trigger, target);
  if (!anyRefusal(drain)) return notVerified(drain.whyNot);
  // With the bucket drained, the first bulk trigger (cost 100) accepted leaves it with less than 100 tokens: its
  // RateLimit-Reset is the wait before another bulk trigger can be accepted. Sent one at a time, so nothing else
  // draws on the bucket in between.
  let accepted: ApiResponse | undefined;
  // when the bucket was last seen too low for a bulk trigger: what refilled since bounds what the accepted one leaves
  let lowAt = Date.now();
  for (let sent = 0; !accepted && sent < 200; sent++) {
    const res = await trigger.bulk();
    if (res.status >= 200 && res.status < 300) accepted = res;
    else if (res.status === 429) {
      lowAt = Date.now();
      await sleep(20);
    } else return notVerified(`a bulk trigger was answered ${res.status}, neither accepted nor throttled`);
  }
  const sinceLowMs = Date.now() - lowAt;
  if (!accepted) return notVerified('no bulk trigger was accepted after the drain');
  gate.note(accepted, 6_000);
  const reading = readBucket(accepted);
  if (!reading) return unverifiableByTarget('the wait RateLimit-Reset states', 'the accepted bulk trigger carries no readable RateLimit-Remaining and RateLimit-Policy (RL-01, RL-02)');
  if (reading.remaining >= BULK_COST) {
    const refilled = Math.round((reading.refillPerSecond * sinceLowMs) / 1000);
    // why: a bucket too low for a bulk trigger, refilled r·t until one is accepted, leaves less than r·t: more is the target's count, not the pace
    const pace = refilled > reading.remaining ? `; the bucket refilled ${refilled} tokens in the ${sinceLowMs} ms since it was last too low (answers that slow): the target's pace or the path to it, not a verdict about the limit` : '';
    return notVerified(`the accepted bulk trigger left Remaining ${reading.remaining}, enough for another: its Reset says nothing about waiting${pace}`);
  }
  const wait = secondsToWait(accepted.headers['ratelimit-reset'], 'RateLimit-Reset', reading.policy.w);
  if (wait > target.timeouts.maxRetryAfterS) return notVerified(`RateLimit-Reset ${wait} s exceeds timeouts.maxRetryAfterS`);
  await sleep(wait * 1000);
  const res = await trigger.bulk();
  gate.note(res, 6_000);
  const what = `a bulk trigger sent ${wait} s (the RateLimit-Reset of the accepted bulk trigger that left Remaining ${reading.remaining}) later must be accepted`;
  expect(res.status, what).toBeGreaterThanOrEqual(200);
  expect(res.status, what).toBeLessThan(300);
}, { needs: ['drain'], buckets: { 'primary trigger': 'measures', 'primary configuration': 'reads' } });

