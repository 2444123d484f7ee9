// RL-05 on a timeline: the interval bound burst + rate·t, convergence to the documented rate, no 429 under the limit.
import { parseRateLimitQuota } from '../../schemas/rate-limit-policy.ts';
import type { RuleTest } from '../../report/verdicts.ts';
import type { PlannedPhase } from '../scenarios/plan.ts';
import type { Timeline } from '../timeline/format.ts';
import { firstIndex, fmt, GENERATOR_BEHIND, phaseBuckets, policyOf, routesOf, series, slackS, STARVED_HINT, sum, test, type CheckContext } from './context.ts';
import { answerShortfall, backlogOf, judgedOn, lateReason } from './generator-lag.ts';
import { actedBy, answerSpreadS, longestAnswerS } from './late-answers.ts';
import type { RouteName } from '../scenarios/routes.ts';

/** The checks over the limit decide RL-05: without one verified, checks under it cannot make it pass. */
const decisive = (t: RuleTest): RuleTest => ({ ...t, decisive: true });

/** RL-05 tolerance on the converged rate. */
export const CONVERGENCE_TOLERANCE = 0.05;
/** The steady-state window must be at least this long to measure a rate. */
const MIN_WINDOW_S = 1;
/** Answers to the phase before an under-limit phase reach into it: how far back its late answers are looked for. */
const LATE_LOOKBACK_S = 2;

/** Why a declared rate off the limit fails RL-05 however the load went: a header is not a measurement. */
export const OWN_STATEMENT = "the target's own statement of its limit, judged whatever rate the load reached";

/**
 * The trigger policy declares the documented rate, read from every timeline (each scenario probes the target anew). A
 * header is the target's own answer whatever the generator did, so a starved run does not hide it.
 */
export function declaredRate(timelines: Timeline[], expectedRps: number): RuleTest[] {
  const headers = [...new Set(timelines.flatMap((tl) => routesOf(tl, 'trigger').flatMap((r) => tl.routes[r]!.policies)))];
  const first = timelines.find((tl) => routesOf(tl, 'trigger').some((r) => tl.routes[r]!.policies.length > 0)) ?? timelines[0];
  if (!first) return [];
  const ctx: CheckContext = { tl: first, expectedRps, bucketS: first.bucketMs / 1000 };
  const title = `RateLimit-Policy of the trigger category declares ${expectedRps}/s`;
  const read = headers.map((header) => ({ header, quota: parseRateLimitQuota(header) }));
  const rates = read.flatMap(({ header, quota }) => (quota.ok ? [{ header, rate: quota.limit / quota.w, quota }] : []));
  if (rates.length === 0) {
    const why = read.find((x) => !x.quota.ok)?.quota;
    return [test(ctx, 'RL-05', title, 'not-verified', why && !why.ok ? why.error : 'no response of category "trigger" carried RateLimit-Policy')];
  }
  const off = rates.filter(({ rate }) => Math.abs(rate - expectedRps) > expectedRps * CONVERGENCE_TOLERANCE);
  const evidence = rates.map(({ header }) => `policy: ${header}`);
  return [
    off.length === 0
      ? test(ctx, 'RL-05', title, 'passed', rates.map(({ header, rate }) => `"${header}" declares ${fmt(rate)}/s`).join('; '), evidence)
      : test(ctx, 'RL-05', title, 'failed', `the trigger limit is ${expectedRps}/s, but RateLimit-Policy "${off[0]!.header}" declares ${off[0]!.quota.limit} per ${off[0]!.quota.w} s = ${fmt(off[0]!.rate)}/s${off.length > 1 ? ` (and ${off.length - 1} more trigger polic${off.length > 2 ? 'ies' : 'y'} off the documented rate)` : ''}: ${OWN_STATEMENT}`, evidence),
  ];
}

/** Every interval's accepted trigger tokens ≤ burst + rate·t (+ the bucket width and the target's latency as slack). */
export function burstBound(ctx: CheckContext): RuleTest[] {
  const title = `accepted trigger tokens in every interval ≤ burst + ${ctx.expectedRps}·t`;
  const p = policyOf(ctx.tl, 'trigger');
  const routes = routesOf(ctx.tl, 'trigger');
  const r = ctx.expectedRps;
  const b = ctx.bucketS;
  // why: only a phase that offers more than the bound over its length can break it; one below the limit passes on any target
  const canExceed = (burst: number) => ctx.tl.plan.phases.some((ph) => phaseTokens(ph) > burst + r * (ph.durationMs / 1000));
  const judged = (t: RuleTest) => ('error' in p || canExceed(p.policy.burst) ? decisive(t) : t);
  if ('error' in p) return [judged(test(ctx, 'RL-05', title, 'not-verified', `no burst to check against: ${p.error}`))];
  const tokens = series(ctx, routes, 'accepted', true);
  // why: a phase the generator under-offered could hide a target that accepts too much
  const slack = slackS(ctx, routes);
  for (const phase of ctx.tl.plan.phases) {
    const planned = phaseTokens(phase);
    if (planned === 0) continue;
    const [from, to] = phaseBuckets(ctx, phase);
    ctx = judgedOn(ctx, routes, from, to, planned);
    // why: arrivals bunched by late answers could hide a bucket that accepts too much, beyond what the slack absorbs
    const blurred = ctx.unreliable === undefined ? answerShortfall(ctx, routes, from, to, ctx.bucketS + slack) : undefined;
    if (blurred) ctx = { ...ctx, unreliable: blurred };
  }
  const worst = tightest(tokens, r * b);
  const lengthS = (worst.to - worst.from) * b;
  const bound = p.policy.burst + r * (lengthS + b + slack);
  const interval = (w: { from: number; to: number }) => `[${fmt(w.from * b, 2)} s, ${fmt(w.to * b, 2)} s)`;
  const evidence = [
    `policy: ${p.header}`,
    `tightest interval ${interval(worst)}: ${worst.accepted} tokens accepted; bound ${p.policy.burst} + ${r}·${fmt(lengthS, 2)} s + slack ${r}·(${fmt(b, 2)} + ${fmt(slack, 2)}) s = ${fmt(bound)}`,
    `total accepted trigger tokens: ${sum(tokens)} over ${fmt(ctx.tl.plan.durationMs / 1000, 2)} s`,
  ];
  if (worst.accepted <= bound) return [judged(test(ctx, 'RL-05', title, 'passed', `at most ${worst.accepted} tokens in ${interval(worst)} (bound ${fmt(bound)})`, evidence))];
  // why: the target counted each request between its send and its answer, and a generator that owed tokens let the bucket save them: fail only beyond both
  const late = beyondLateAnswers(ctx, routes, tokens, p.policy.burst, slack);
  const owed = backlogOf(ctx, routes, late.from, late.to).tokens;
  evidence.push(`widest blur: in ${interval(late)} ${late.accepted} tokens accepted; answered up to ${fmt(late.reachS * 1000, 0)} ms past the interval, ${fmt(owed)} tokens owed by the generator: a correct bucket accepts at most ${fmt(late.bound + owed)}`);
  if (late.accepted <= late.bound + owed) {
    const what = `${worst.accepted} trigger tokens accepted, over the bound ${fmt(bound)}, but requests sent there were answered up to ${fmt(late.reachS * 1000, 0)} ms after the interval${owed > 0 ? ` and the generator owed up to ${fmt(owed)} tokens` : ''}, so a correct bucket may have accepted up to ${fmt(late.bound + owed)}`;
    // why: name what blurred the interval: answers later than the slack, else the generator's backlog
    const why = late.reachS > slack ? lateReason(ctx, worst.from, worst.to, what) : `${GENERATOR_BEHIND} in ${interval(worst)} (${what}): the target's answers there cannot be judged (${STARVED_HINT})`;
    return [judged(test(ctx, 'RL-05', title, 'not-verified', ctx.unreliable ?? why, evidence))];
  }
  return [
    judged(test(ctx, 'RL-05', title, 'failed',
      `in ${interval(late)} the target accepted ${late.accepted} trigger tokens; the limit allows at most burst ${p.policy.burst} + ${r}/s·${fmt((late.to - late.from) * b, 2)} s (+ slack for answers up to ${fmt(Math.max(slack, late.reachS), 2)} s late${owed > 0 ? ` and ${fmt(owed)} tokens the generator owed` : ''}) = ${fmt(late.bound + owed)}`,
      evidence)),
  ];
}

function phaseTokens(phase: PlannedPhase): number {
  return phase.streams.filter((s) => s.category === 'trigger').reduce((n, s) => n + s.count * s.cost, 0);
}

/** The interval [from, to) of buckets where accepted − perBucket·length is largest: max prefix(j) − min prefix(i), in one pass. */
function tightest(tokens: number[], perBucket: number): { from: number; to: number; accepted: number } {
  let prefix = 0;
  let minPrefix = 0;
  let minAt = 0;
  let worst = { excess: -Infinity, from: 0, to: 0, accepted: 0 };
  for (let j = 0; j < tokens.length; j++) {
    prefix += (tokens[j] ?? 0) - perBucket;
    if (prefix - minPrefix > worst.excess) worst = { excess: prefix - minPrefix, from: minAt, to: j + 1, accepted: sum(tokens, minAt, j + 1) };
    if (prefix < minPrefix) {
      minPrefix = prefix;
      minAt = j + 1;
    }
  }
  return worst;
}

/** The interval whose accepted tokens most exceed burst + rate·(length + bucket + slack), where slack covers how late its answers came. */
function beyondLateAnswers(ctx: CheckContext, routes: RouteName[], tokens: number[], burst: number, slack: number) {
  const r = ctx.expectedRps;
  const b = ctx.bucketS;
  const by = actedBy(ctx, routes);
  let worst = { excess: -Infinity, from: 0, to: 0, accepted: 0, bound: 0, reachS: 0 };
  for (let i = 0; i < tokens.length; i++) {
    let accepted = 0;
    let latest = -Infinity;
    for (let j = i; j < tokens.length; j++) {
      accepted += tokens[j] ?? 0;
      latest = Math.max(latest, by[j]!);
      const reach = Math.max(0, latest - (j + 1) * b);
      const bound = burst + r * ((j + 1 - i) * b + b + Math.max(slack, reach));
      if (accepted - bound > worst.excess) worst = { excess: accepted - bound, from: i, to: j + 1, accepted, bound, reachS: reach };
    }
  }
  return worst;
}

/** Once the burst is spent, the accepted token rate equals the documented rate ±5%. */
export function convergence(ctx: CheckContext, phase: PlannedPhase): RuleTest[] {
  const r = ctx.expectedRps;
  const title = `accepted trigger rate in "${phase.name}" converges to ${r}/s ±${CONVERGENCE_TOLERANCE * 100}% once the burst is spent`;
  const p = policyOf(ctx.tl, 'trigger');
  if ('error' in p) return [decisive(test(ctx, 'RL-05', title, 'not-verified', p.error))];
  const routes = routesOf(ctx.tl, 'trigger');
  const tokens = series(ctx, routes, 'accepted', true);
  const throttled = series(ctx, routes, 'throttled');
  const [from, to] = phaseBuckets(ctx, phase);
  const offered = phase.streams.filter((s) => s.category === 'trigger').reduce((n, s) => n + s.rps * s.cost, 0);
  if (offered <= r) return [decisive(test(ctx, 'RL-05', title, 'not-verified', `the phase offers ${fmt(offered)} tokens/s, not above ${r}/s`))];
  const b = ctx.bucketS;
  const first429 = firstIndex(throttled, from, to, (v) => v > 0);
  const drainS = p.policy.burst / (offered - r);
  // why: steady state starts when the burst must be gone (at the documented rate) and a 429 was seen, plus a settle bucket
  const predicted = from + Math.ceil(drainS / b);
  const start = Math.max(predicted, first429 >= 0 ? first429 : predicted) + 1;
  const end = to - 1;
  const windowS = (end - start) * b;
  const evidence = [
    `policy: ${p.header}`,
    `offered ${fmt(offered)} tokens/s from ${fmt(phase.startMs / 1000, 2)} s for ${fmt(phase.durationMs / 1000, 2)} s; burst ${p.policy.burst} drains in ${fmt(drainS, 2)} s at ${r}/s`,
    `first 429 at ${first429 >= 0 ? `${fmt(first429 * b, 2)} s` : 'never'}`,
  ];
  if (windowS < MIN_WINDOW_S) {
    const phaseS = phase.durationMs / 1000;
    const why = windowS > 0
      ? `only ${fmt(windowS, 2)} s of the phase remain after the burst is spent (need ${MIN_WINDOW_S} s)`
      : `the burst of ${p.policy.burst} lasts ${fmt(drainS, 2)} s at ${fmt(offered)}/s offered and the phase ${fmt(phaseS, 2)} s: no steady window remains (need ${MIN_WINDOW_S} s)`;
    return [decisive(test(ctx, 'RL-05', title, 'not-verified', `${why}: lengthen the phase (conformance load sizes it from the target's declared burst)`, evidence))];
  }
  ctx = judgedOn(ctx, routes, start, end, r * windowS);
  const accepted = sum(tokens, start, end);
  const rate = accepted / windowS;
  // why: answers whose time varied by d s may have been counted up to d s off the window's edges: r·d tokens either way
  const blurS = answerSpreadS(ctx, routes, start - 1, end);
  const [lo, hi] = [(accepted - r * blurS) / windowS, (accepted + r * blurS) / windowS];
  const within = (x: number) => Math.abs(x - r) <= r * CONVERGENCE_TOLERANCE;
  const ok = within(rate);
  const band = `${fmt(r * (1 - CONVERGENCE_TOLERANCE))}–${fmt(r * (1 + CONVERGENCE_TOLERANCE))}`;
  evidence.push(`steady window [${fmt(start * b, 2)} s, ${fmt(end * b, 2)} s): ${accepted} tokens accepted = ${fmt(rate)}/s (allowed ${band}); answer times varied by ${fmt(blurS * 1000, 0)} ms there: ${fmt(lo)}–${fmt(hi)}/s`);
  if (ok ? !(within(lo) && within(hi)) : lo <= r * (1 + CONVERGENCE_TOLERANCE) && hi >= r * (1 - CONVERGENCE_TOLERANCE)) {
    const why = lateReason(ctx, start, end, `${fmt(rate)}/s accepted, but answer times varied by ${fmt(blurS * 1000, 0)} ms, so the target's own rate over the window lies anywhere in ${fmt(lo)}–${fmt(hi)}/s, across the allowed ${band}`);
    return [decisive(test(ctx, 'RL-05', title, 'not-verified', ctx.unreliable ?? why, evidence))];
  }
  return [
    decisive(test(ctx, 'RL-05', title, ok ? 'passed' : 'failed',
      ok ? `${fmt(rate)}/s accepted over ${fmt(windowS, 2)} s of steady state` : `with ${fmt(offered)}/s offered, the target accepted ${fmt(rate)}/s over ${fmt(windowS, 2)} s after the burst was spent; the documented limit is ${r}/s ±${CONVERGENCE_TOLERANCE * 100}%`,
      evidence)),
  ];
}

/** Traffic below the limit, after a refill, is never throttled. */
export function noThrottling(ctx: CheckContext, phase: PlannedPhase): RuleTest[] {
  const routes = routesOf(ctx.tl, 'trigger');
  const offered = phase.streams.filter((s) => s.category === 'trigger').reduce((n, s) => n + s.rps * s.cost, 0);
  const title = `${fmt(offered)}/s in "${phase.name}" (below ${ctx.expectedRps}/s) gets no 429`;
  const [from, to] = phaseBuckets(ctx, phase);
  const throttled = series(ctx, routes, 'throttled');
  const accepted = sum(series(ctx, routes, 'accepted'), from, to);
  const count = sum(throttled, from, to);
  if (accepted === 0 && count === 0) return [test(ctx, 'RL-05', title, 'not-verified', 'no response in the phase')];
  ctx = judgedOn(ctx, routes, from, to, offered * (to - from) * ctx.bucketS);
  const first = firstIndex(throttled, from, to, (v) => v > 0);
  const ok = count === 0;
  const evidence = [`phase [${fmt(phase.startMs / 1000, 2)} s, ${fmt((phase.startMs + phase.durationMs) / 1000, 2)} s): ${accepted} accepted, ${count} throttled`];
  if (!ok) {
    // why: requests answered d s late may have reached the target bunched within d s (or, from the phase before, eaten its refill): a full bucket absorbs up to its burst
    const p = policyOf(ctx.tl, 'trigger');
    const burstS = 'error' in p ? 1 : p.policy.burst / ctx.expectedRps;
    const lateS = longestAnswerS(ctx, routes, Math.max(0, from - Math.round(LATE_LOOKBACK_S / ctx.bucketS)), to);
    if (lateS >= burstS) {
      const why = lateReason(ctx, from, to, `${count} requests got 429 below the limit, but answers took up to ${fmt(lateS * 1000, 0)} ms — as long as the burst lasts at the documented rate (${fmt(burstS, 2)} s) — so requests may have reached the target bunched`);
      return [test(ctx, 'RL-05', title, 'not-verified', ctx.unreliable ?? why, evidence)];
    }
  }
  return [
    test(ctx, 'RL-05', title, ok ? 'passed' : 'failed',
      ok ? `${accepted} accepted, none throttled` : `${count} of ${count + accepted} requests got 429 although ${fmt(offered)}/s is below the ${ctx.expectedRps}/s limit; the first at ${fmt(first * ctx.bucketS, 2)} s`,
      evidence),
  ];
}
