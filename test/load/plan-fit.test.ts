// Phases sized from the target's declared buckets: with the deployed 600/s and burst 3300 (w=5), the short profile
// still spends the burst, so RL-04, RL-05 convergence and RL-06 are verified rather than left not-verified.
import { describe, expect, test } from 'vitest';
import { declaredLimitOf } from '../../load/scenarios/declared-limits.ts';
import { scenarioByName } from '../../load/scenarios/index.ts';
import { DRAIN_MARGIN, planScenario, STEADY_AFTER_BURST_S } from '../../load/scenarios/plan.ts';
import { judgeTimelines, type LoadRuleVerdict } from '../../load/verdict/judge.ts';
import { simulate, type SimTarget } from './synthetic-target.ts';

const DEPLOYED: SimTarget = { rps: { trigger: 600, configuration: 200, global: 600 }, w: 5 };
const declared = {
  trigger: declaredLimitOf('3000;w=5;burst=3300;comment="token bucket";category="trigger";cost="single"')!,
  configuration: declaredLimitOf('1000;w=5;burst=1100')!,
  global: declaredLimitOf('3000;w=5;burst=3300')!,
};
const phaseS = (name: string) => planScenario(scenarioByName(name)!, 'short', 600, 1, declared).phases.map((p) => [p.name, p.durationMs / 1000]);

function judge(scenarios: string[], fitted: boolean): Record<string, LoadRuleVerdict> {
  const timelines = scenarios.map((s) => simulate(planScenario(scenarioByName(s)!, 'short', 600, 1, fitted ? declared : {}), DEPLOYED));
  return Object.fromEntries(judgeTimelines(timelines, 600).map((v) => [v.id, v]));
}

describe('phases fitted to the declared limits', () => {
  test('RateLimit-Policy gives burst and refill rate', () => {
    expect(declared.trigger).toEqual({ burst: 3300, ratePerS: 600 });
    expect(declaredLimitOf('garbage')).toBeUndefined();
  });

  test('over-limit phases last until the burst is spent plus a steady window; idle phases until it refilled', () => {
    // 900/s offered against 600/s: 3300 / 300 = 11 s (×DRAIN_MARGIN), then STEADY_AFTER_BURST_S
    expect(phaseS('trigger-limit')).toEqual([['over-limit', 11 * DRAIN_MARGIN + STEADY_AFTER_BURST_S], ['refill', 5.5], ['under-limit', 3]]);
    expect(phaseS('category-isolation')).toEqual([['trigger-exhausted', 16.2]]);
    // 720/s: 3300 / 120 = 27.5 s
    expect(phaseS('headers-under-load')).toEqual([['over-limit', 36]]);
    // bulk subscribers: 4/s × 100 tokens against 200 tokens/s refill, 1100 burst: 5.5 s
    expect(phaseS('bulk-cost')).toEqual([['bulk', 9.6]]);
    // below the limit nothing changes
    expect(phaseS('trigger-under-limit')).toEqual([['under-limit', 8]]);
  });

  test('the embedded short reference (200/s, burst 220) keeps the profile lengths', () => {
    const small = { trigger: { burst: 220, ratePerS: 200 } };
    expect(planScenario(scenarioByName('trigger-limit')!, 'short', 200, 1, small).phases.map((p) => p.durationMs)).toEqual([6000, 1500, 3000]);
  });

  test('a declared burst that would need more than the cap is capped', () => {
    const huge = { trigger: { burst: 10_000_000, ratePerS: 600 } };
    expect(planScenario(scenarioByName('category-isolation')!, 'short', 600, 1, huge).phases[0]!.durationMs).toBe(120_000);
  });

  test('against the deployed limits, fitted short phases verify RL-04, RL-05 convergence and RL-06', () => {
    const v = judge(['trigger-limit', 'category-isolation'], true);
    for (const id of ['RL-04', 'RL-05', 'RL-06']) expect({ id, verdict: v[id]?.verdict, open: v[id]?.tests.filter((t) => t.status !== 'passed').map((t) => t.message) }).toEqual({ id, verdict: 'pass', open: [] });
    expect(v['RL-05']!.tests.some((t) => t.name.includes('converges') && t.status === 'passed')).toBe(true);
  });

  test('without fitting they stay not-verified, and the convergence message never shows a negative duration', () => {
    const v = judge(['trigger-limit', 'category-isolation'], false);
    expect(v['RL-04']?.verdict).toBe('not-verified');
    expect(v['RL-06']?.verdict).toBe('not-verified');
    const convergence = v['RL-05']!.tests.find((t) => t.name.includes('converges'))!;
    expect(convergence.status).toBe('not-verified');
    expect(convergence.message).toMatch(/the burst of 3300 lasts 11 s at 900\/s offered and the phase 6 s: no steady window remains/);
    expect(convergence.message).not.toMatch(/-\d/);
  });
});
