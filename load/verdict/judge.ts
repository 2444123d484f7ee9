// One verdict per RL rule from recorded timelines, whichever engine recorded them.
import { isRuleId, requirement } from '../../requirements/index.ts';
import { decisiveGap, type RuleTest, type Verdict } from '../../report/verdicts.ts';
import type { Timeline } from '../timeline/format.ts';
import { bulkSubscribersRate, otherCategoriesUnthrottled } from './category-checks.ts';
import { contextOf } from './context.ts';
import { notAsPlanned } from './generator-lag.ts';
import { remainingFallsByCost, throttledWellFormed } from './header-checks.ts';
import { interruptedChecks } from './interrupted-checks.ts';
import { burstBound, convergence, declaredRate, noThrottling, OWN_STATEMENT } from './trigger-limit-checks.ts';

export interface LoadRuleVerdict {
  id: string;
  level: 'MUST' | 'SHOULD' | 'INFO';
  verdict: Verdict;
  tests: RuleTest[];
}

export const LOAD_RULES = ['RL-03', 'RL-04', 'RL-05', 'RL-06', 'RL-08'] as const;

export function judgeTimelines(timelines: Timeline[], expectedRps: number): LoadRuleVerdict[] {
  const tests: RuleTest[] = [];
  if (timelines.some((tl) => Object.values(tl.routes).some((r) => r.category === 'trigger' && r.policies.length > 0))) tests.push(...declaredRate(timelines, expectedRps));
  for (const tl of timelines) {
    const ctx = contextOf(tl, expectedRps);
    const expects = new Set(tl.plan.phases.flatMap((p) => p.expect));
    if (expects.has('within-burst-bound')) tests.push(...burstBound(ctx));
    for (const phase of tl.plan.phases) {
      if (phase.expect.includes('converges-to-limit')) tests.push(...convergence(ctx, phase));
      if (phase.expect.includes('no-429')) tests.push(...noThrottling(ctx, phase));
      if (phase.expect.includes('other-categories-unthrottled')) tests.push(...otherCategoriesUnthrottled(ctx, phase));
      if (phase.expect.includes('bulk-subscribers-2rps')) tests.push(...bulkSubscribersRate(ctx, phase));
    }
    if (expects.has('remaining-falls-by-cost')) tests.push(...remainingFallsByCost(ctx));
    if (expects.has('throttled-well-formed')) tests.push(...throttledWellFormed(ctx));
    tests.push(...interruptedChecks(tl, expectedRps));
  }
  tests.push(...overLimitMissing(timelines, tests));
  saysNoOverLimitJudged(tests);
  return LOAD_RULES.map((id) => {
    const own = tests.filter((t) => t.name.endsWith(`[${id}]`));
    const level = isRuleId(id) ? requirement(id).level : 'MUST';
    return { id, level, verdict: decide(level, own), tests: own };
  }).filter((r) => r.tests.length > 0);
}

/** Why a timeline measured a starved run (its generator behind, answers late, or too much lost), if it did. */
export function starvedReason(tl: Timeline, expectedRps: number): string | undefined {
  const lost = contextOf(tl, expectedRps).unreliable;
  if (lost !== undefined) return lost;
  for (const v of judgeTimelines([tl], expectedRps)) for (const t of v.tests) if (t.status === 'not-verified' && notAsPlanned(t.message)) return t.message;
  return undefined;
}

/** RL-05 is decided over the limit: a run whose scenarios all stayed below it cannot make it pass. */
function overLimitMissing(timelines: Timeline[], tests: RuleTest[]): RuleTest[] {
  const own = tests.filter((t) => t.name.endsWith('[RL-05]'));
  if (own.length === 0 || own.some((t) => t.decisive)) return [];
  const engines = [...new Set(timelines.map((tl) => tl.engine))].join(', ');
  return [{
    name: `load ${timelines.map((tl) => tl.scenario).join(', ')} (${engines}): a phase above the trigger limit was judged [RL-05]`,
    status: 'not-verified',
    durationMs: 0,
    message: 'no scenario of the run offered the trigger category more than its limit allows over a phase (trigger-limit, headers-under-load, category-isolation do): the limit itself was not exercised',
    decisive: true,
  }];
}

/** A declared rate that fails RL-05 while no phase above the limit was judged says so: the fail rests on the header alone. */
function saysNoOverLimitJudged(tests: RuleTest[]): void {
  const own = tests.filter((t) => t.name.endsWith('[RL-05]'));
  if (own.some((t) => t.decisive && (t.status === 'passed' || t.status === 'failed'))) return;
  for (const t of own) if (t.status === 'failed' && t.message?.endsWith(OWN_STATEMENT)) t.message += '; no phase above the limit was judged, so the load itself says nothing either way';
}

/**
 * Same decision as the functional report: a failed MUST test fails the rule, a failed SHOULD test warns. One more
 * for load: a rule with a check its starved generator (or late answers) left unjudged was not exercised as planned, so it is not `pass`.
 */
export function decide(level: LoadRuleVerdict['level'], tests: RuleTest[]): Verdict {
  if (tests.some((t) => t.status === 'failed')) return level === 'MUST' && tests.some((t) => t.status === 'failed' && t.level !== 'SHOULD') ? 'fail' : 'warn';
  if (tests.some((t) => t.status === 'not-verified' && notAsPlanned(t.message))) return 'not-verified';
  if (tests.some((t) => t.status === 'passed')) return decisiveGap(tests) ? 'not-verified' : 'pass';
  if (tests.length > 0 && tests.every((t) => t.status === 'not-applicable')) return 'not-applicable';
  return 'not-verified';
}
