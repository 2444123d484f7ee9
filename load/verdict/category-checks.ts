// RL-06 and RL-08 under load: independent category buckets; bulk subscribers held to 2 requests per second.
import type { RuleTest } from '../../report/verdicts.ts';
import type { PlannedPhase } from '../scenarios/plan.ts';
import { firstIndex, fmt, phaseBuckets, policyOf, routesOf, series, slackS, sum, test, type CheckContext } from './context.ts';
import { judgedOn } from './generator-lag.ts';
import { reachS } from './late-answers.ts';

/** While the trigger bucket throttles, configuration and global requests are not throttled. */
export function otherCategoriesUnthrottled(ctx: CheckContext, phase: PlannedPhase): RuleTest[] {
  const title = `configuration and global calls pass while the trigger bucket is exhausted in "${phase.name}"`;
  const [from, to] = phaseBuckets(ctx, phase);
  const triggerThrottled = series(ctx, routesOf(ctx.tl, 'trigger'), 'throttled');
  const first = firstIndex(triggerThrottled, from, to, (v) => v > 0);
  if (first < 0) return [test(ctx, 'RL-06', title, 'not-verified', 'the trigger bucket was never exhausted (no 429 on trigger)')];
  const others = routesOf(ctx.tl).filter((r) => ctx.tl.routes[r]!.category !== 'trigger');
  const accepted = sum(series(ctx, others, 'accepted'), first, to);
  const throttled = sum(series(ctx, others, 'throttled'), first, to);
  const perRoute = others.map((r) => `${r} (${ctx.tl.routes[r]!.category}): ${JSON.stringify(ctx.tl.routes[r]!.statuses)}`);
  const evidence = [`trigger throttled from ${fmt(first * ctx.bucketS, 2)} s; ${sum(triggerThrottled, from, to)} trigger 429s in the phase`, ...perRoute];
  if (accepted + throttled === 0) return [test(ctx, 'RL-06', title, 'not-verified', 'no configuration or global response while trigger was exhausted', evidence)];
  // why: a trigger bucket the generator stopped draining refills, and a shared bucket would then pass unseen
  const triggerTokens = phase.streams.filter((s) => s.category === 'trigger').reduce((n, s) => n + s.rps * s.cost, 0) * (to - first) * ctx.bucketS;
  ctx = judgedOn(ctx, routesOf(ctx.tl, 'trigger'), first, to, triggerTokens);
  return [
    throttled === 0
      ? test(ctx, 'RL-06', title, 'passed', `${accepted} configuration/global calls accepted while trigger was throttled`, evidence)
      : test(ctx, 'RL-06', title, 'failed', `${throttled} of ${accepted + throttled} configuration/global calls got 429 while only the trigger bucket was exhausted (at 5/s each they are far below their own limits)`, evidence),
  ];
}

/** RL-08: accepted bulk-subscriber requests in any interval ≤ ⌊burst/100⌋ + 2·t (+1 and latency slack). */
export function bulkSubscribersRate(ctx: CheckContext, phase: PlannedPhase): RuleTest[] {
  const title = 'POST /v1/subscribers/bulk accepts at most 2 requests per second after its burst';
  const route = 'subscribers-bulk' as const;
  const s = ctx.tl.routes[route];
  if (!s) return [test(ctx, 'RL-08', title, 'not-verified', 'no bulk-subscribers traffic')];
  const p = policyOf(ctx.tl, s.category);
  if ('error' in p) return [test(ctx, 'RL-08', title, 'not-verified', p.error)];
  const [from, to] = phaseBuckets(ctx, phase);
  const accepted = series(ctx, [route], 'accepted');
  const burstRequests = Math.floor(p.policy.burst / s.cost);
  const b = ctx.bucketS;
  let worst = { excess: -Infinity, from: 0, to: 0, count: 0 };
  for (let i = from; i < to; i++) {
    let count = 0;
    for (let j = i; j < to; j++) {
      count += accepted[j] ?? 0;
      const excess = count - 2 * (j + 1 - i) * b;
      if (excess > worst.excess) worst = { excess, from: i, to: j + 1, count };
    }
  }
  // why: RL-08 counts requests, not tokens
  const planned = phase.streams.filter((st) => st.route === route).reduce((n, st) => n + st.count, 0);
  ctx = judgedOn(ctx, [route], from, to, planned, false);
  const lengthS = (worst.to - worst.from) * b;
  // why: the target counted each request between send and answer, so answers later than the slack widen the window it counted in
  const late = Math.max(slackS(ctx, [route]), reachS(ctx, [route], worst.from, worst.to));
  const bound = burstRequests + 2 * (lengthS + b + late) + 1;
  const ok = worst.count <= bound;
  const evidence = [`policy: ${p.header} (cost ${s.cost}: burst of ${burstRequests} requests)`, `statuses: ${JSON.stringify(s.statuses)}`,
    `tightest interval [${fmt(worst.from * b, 2)} s, ${fmt(worst.to * b, 2)} s): ${worst.count} accepted, bound ${fmt(bound, 2)}`];
  return [
    ok
      ? test(ctx, 'RL-08', title, 'passed', `at most ${worst.count} accepted in ${fmt(lengthS, 2)} s (bound ${fmt(bound, 2)})`, evidence)
      : test(ctx, 'RL-08', title, 'failed', `${worst.count} bulk-subscriber requests were accepted within ${fmt(lengthS, 2)} s; 2/s after a burst of ${burstRequests} allows ${fmt(bound, 2)}`, evidence),
  ];
}
