// RL-05 on a timeline: the interval bound burst + rate·t, convergence to the documented rate, no 429 under the limit.
import type { RuleTest } from '../../report/verdicts.ts';
import type { PlannedPhase } from '../scenarios/plan.ts';
import { firstIndex, fmt, phaseBuckets, policyOf, routesOf, series, slackS, sum, test, type CheckContext } from './context.ts';
import { judgedOn } from './generator-lag.ts';

/** The checks over the limit decide RL-05: without one verified, checks under it cannot make it pass. */
const decisive = (t: RuleTest): RuleTest => ({ ...t, decisive: true });

/** RL-05 tolerance on the converged rate. */
export const CONVERGENCE_TOLERANCE = 0.05;
/** The steady-state window must be at least this long to measure a rate. */
const MIN_WINDOW_S = 1;

export function declaredRate(ctx: CheckContext): RuleTest[] {
  const p = policyOf(ctx.tl, 'trigger');
  if ('error' in p) return [test(ctx, 'RL-05', 'RateLimit-Policy of the trigger category declares the documented rate', 'not-verified', p.error)];
  const rate = p.policy.limit / p.policy.w;
  const ok = Math.abs(rate - ctx.expectedRps) <= ctx.expectedRps * CONVERGENCE_TOLERANCE;
  return [
    test(ctx, 'RL-05', `RateLimit-Policy of the trigger category declares ${ctx.expectedRps}/s`, ok ? 'passed' : 'failed',
      ok ? `"${p.header}" declares ${fmt(rate)}/s` : `the trigger limit is ${ctx.expectedRps}/s, but RateLimit-Policy "${p.header}" declares ${p.policy.limit} per ${p.policy.w} s = ${fmt(rate)}/s`,
      [`policy: ${p.header}`]),
  ];
}

/** Every interval's accepted trigger tokens ≤ burst + rate·t (+ the bucket width and the target's latency as slack). */
export function burstBound(ctx: CheckContext): RuleTest[] {
  const title = `accepted trigger tokens in every interval ≤ burst + ${ctx.expectedRps}·t`;
  const p = policyOf(ctx.tl, 'trigger');
  if ('error' in p) return [decisive(test(ctx, 'RL-05', title, 'not-verified', `no burst to check against: ${p.error}`))];
  const routes = routesOf(ctx.tl, 'trigger');
  const tokens = series(ctx, routes, 'accepted', true);
  const r = ctx.expectedRps;
  const b = ctx.bucketS;
  // why: max over i ≤ j of (tokens[i..j] − r·len) in one pass, as max prefix(j) − min prefix(i)
  let prefix = 0;
  let minPrefix = 0;
  let minAt = 0;
  let worst = { excess: -Infinity, from: 0, to: 0, accepted: 0 };
  for (let j = 0; j < tokens.length; j++) {
    prefix += (tokens[j] ?? 0) - r * b;
    if (prefix - minPrefix > worst.excess) {
      const accepted = sum(tokens, minAt, j + 1);
      worst = { excess: prefix - minPrefix, from: minAt, to: j + 1, accepted };
    }
    if (prefix < minPrefix) {
      minPrefix = prefix;
      minAt = j + 1;
    }
  }
  // why: a phase the generator under-offered could hide a target that accepts too much
  for (const phase of ctx.tl.plan.phases) {
    const planned = phase.streams.filter((s) => s.category === 'trigger').reduce((n, s) => n + s.count * s.cost, 0);
    if (planned > 0) ctx = judgedOn(ctx, routes, ...phaseBuckets(ctx, phase), planned);
  }
  const slack = slackS(ctx, routes);
  const lengthS = (worst.to - worst.from) * b;
  const bound = p.policy.burst + r * (lengthS + b + slack);
  const ok = worst.accepted <= bound;
  const interval = `[${fmt(worst.from * b, 2)} s, ${fmt(worst.to * b, 2)} s)`;
  const evidence = [
    `policy: ${p.header}`,
    `tightest interval ${interval}: ${worst.accepted} tokens accepted; bound ${p.policy.burst} + ${r}·${fmt(lengthS, 2)} s + slack ${r}·(${fmt(b, 2)} + ${fmt(slack, 2)}) s = ${fmt(bound)}`,
    `total accepted trigger tokens: ${sum(tokens)} over ${fmt(ctx.tl.plan.durationMs / 1000, 2)} s`,
  ];
  return [
    decisive(test(ctx, 'RL-05', title, ok ? 'passed' : 'failed',
      ok ? `at most ${worst.accepted} tokens in ${interval} (bound ${fmt(bound)})` : `in ${interval} the target accepted ${worst.accepted} trigger tokens; the limit allows at most burst ${p.policy.burst} + ${r}/s·${fmt(lengthS, 2)} s (+ slack) = ${fmt(bound)}`,
      evidence)),
  ];
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
  const ok = Math.abs(rate - r) <= r * CONVERGENCE_TOLERANCE;
  evidence.push(`steady window [${fmt(start * b, 2)} s, ${fmt(end * b, 2)} s): ${accepted} tokens accepted = ${fmt(rate)}/s (allowed ${fmt(r * (1 - CONVERGENCE_TOLERANCE))}–${fmt(r * (1 + CONVERGENCE_TOLERANCE))})`);
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
  return [
    test(ctx, 'RL-05', title, ok ? 'passed' : 'failed',
      ok ? `${accepted} accepted, none throttled` : `${count} of ${count + accepted} requests got 429 although ${fmt(offered)}/s is below the ${ctx.expectedRps}/s limit; the first at ${fmt(first * ctx.bucketS, 2)} s`,
      [`phase [${fmt(phase.startMs / 1000, 2)} s, ${fmt((phase.startMs + phase.durationMs) / 1000, 2)} s): ${accepted} accepted, ${count} throttled`]),
  ];
}
