// A timeline cut short by a Ctrl-C is judged only as far as it goes (timeline/truncate.ts keeps the phases that ran to
// their end); each rule whose checks belonged to the phases that did not gets a not-verified test that says so.
import type { RuleTest } from '../../report/verdicts.ts';
import type { Expectation } from '../scenarios/types.ts';
import type { Timeline } from '../timeline/format.ts';
import { contextOf, fmt, test } from './context.ts';

/** The rule each expectation is evidence for (load/scenarios/types.ts). */
const RULE_OF: Record<Expectation, string> = {
  'within-burst-bound': 'RL-05',
  'converges-to-limit': 'RL-05',
  'no-429': 'RL-05',
  'remaining-falls-by-cost': 'RL-03',
  'throttled-well-formed': 'RL-04',
  'other-categories-unthrottled': 'RL-06',
  'bulk-subscribers-2rps': 'RL-08',
};

const OVER_LIMIT: readonly Expectation[] = ['within-burst-bound', 'converges-to-limit'];

export function interruptedChecks(tl: Timeline, expectedRps: number): RuleTest[] {
  if (!tl.interrupted) return [];
  const { atMs, phases } = tl.interrupted;
  const ctx = contextOf(tl, expectedRps);
  const rules = [...new Set(phases.flatMap((p) => p.expect.map((e) => RULE_OF[e])))];
  const names = phases.map((p) => `"${p.name}"`).join(', ');
  const before = tl.plan.phases.length > 0 ? `; the ${tl.plan.phases.length} phase(s) before them were` : '';
  // why: a cut check over the limit counts as one of RL-05's decisive checks, not verified (verdicts.ts decisiveGap)
  const overLimitCut = phases.some((p) => p.expect.some((e) => OVER_LIMIT.includes(e)));
  return rules.map((rule) => {
    const cut = test({ ...ctx, unreliable: undefined }, rule, `interrupted at ${fmt(atMs / 1000, 1)} s: phase(s) ${names} not judged`, 'not-verified',
      `interrupted at ${fmt(atMs / 1000, 1)} s of ${fmt(tl.plan.durationMs / 1000, 1)} s: the phase(s) ${names} did not run to their end, so their ${rule} checks were not judged${before}`);
    return rule === 'RL-05' && overLimitCut ? { ...cut, decisive: true as const } : cut;
  });
}
