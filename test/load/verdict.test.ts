// The load verdict on simulated timelines: a faithful token bucket passes; each broken behaviour fails its rule.
import { describe, expect, test } from 'vitest';
import { scenarioByName } from '../../load/scenarios/index.ts';
import { planScenario } from '../../load/scenarios/plan.ts';
import { judgeTimelines, type LoadRuleVerdict } from '../../load/verdict/judge.ts';
import { simulate, type SimTarget } from './synthetic-target.ts';

const RPS = 200;
const CLEAN: SimTarget = { rps: { trigger: RPS, configuration: 200, global: 600 }, w: 1 };
const ALL = ['trigger-limit', 'trigger-under-limit', 'headers-under-load', 'bulk-cost', 'category-isolation'];

function judge(target: SimTarget, scenarios = ALL, profile: 'short' | 'full' = 'short'): Record<string, LoadRuleVerdict> {
  const timelines = scenarios.map((s) => simulate(planScenario(scenarioByName(s)!, profile, RPS), target));
  return Object.fromEntries(judgeTimelines(timelines, RPS).map((v) => [v.id, v]));
}

function failedTests(v: LoadRuleVerdict | undefined): string[] {
  return (v?.tests ?? []).filter((t) => t.status === 'failed').map((t) => t.name);
}

describe('load verdict on simulated timelines', () => {
  test('a faithful token bucket passes RL-03, RL-04, RL-05, RL-06 and RL-08', () => {
    const v = judge(CLEAN);
    for (const id of ['RL-03', 'RL-04', 'RL-05', 'RL-06', 'RL-08']) expect({ id, verdict: v[id]?.verdict, failed: failedTests(v[id]) }).toEqual({ id, verdict: 'pass', failed: [] });
  });

  test('the full profile at w=5 passes too', () => {
    const v = judge({ ...CLEAN, w: 5 }, ['trigger-limit', 'category-isolation'], 'full');
    expect(v['RL-05']?.verdict).toBe('pass');
    expect(v['RL-05']?.tests.every((t) => t.status === 'passed')).toBe(true);
  });

  test('a bucket refilling 1.5× too fast fails RL-05 on the interval bound and on convergence', () => {
    const v = judge({ ...CLEAN, triggerRefillFactor: 1.5 }, ['trigger-limit']);
    expect(v['RL-05']?.verdict).toBe('fail');
    expect(failedTests(v['RL-05']).join('\n')).toMatch(/every interval[\s\S]*converges/);
  });

  test('a bucket refilling at 2/3 fails RL-05 on convergence', () => {
    const v = judge({ ...CLEAN, triggerRefillFactor: 2 / 3 }, ['trigger-limit']);
    expect(v['RL-05']?.verdict).toBe('fail');
    expect(failedTests(v['RL-05']).join('\n')).toMatch(/converges/);
  });

  test('429s under a sustained 0.8× rate fail RL-05', () => {
    const v = judge({ ...CLEAN, triggerRefillFactor: 0.5 }, ['trigger-under-limit']);
    expect(v['RL-05']?.verdict).toBe('fail');
    expect(failedTests(v['RL-05']).join('\n')).toMatch(/gets no 429/);
  });

  test('429 without Retry-After fails RL-04', () => {
    const v = judge({ ...CLEAN, noRetryAfter: true }, ['trigger-limit']);
    expect(v['RL-04']?.verdict).toBe('fail');
    expect(v['RL-04']?.tests[0]?.message).toMatch(/had no Retry-After/);
  });

  test('a 429 body that is not the rate-limit body fails RL-04', () => {
    const v = judge({ ...CLEAN, plainTextBody: true }, ['headers-under-load']);
    expect(v['RL-04']?.verdict).toBe('fail');
    expect(v['RL-04']?.tests[0]?.message).toMatch(/body/);
  });

  test('Remaining stuck at the burst fails RL-03', () => {
    const v = judge({ ...CLEAN, remainingNotDecremented: true }, ['headers-under-load']);
    expect(v['RL-03']?.verdict).toBe('fail');
    expect(v['RL-03']?.tests[0]?.message).toMatch(/can be at most 219/);
  });

  test('a bulk request costing 1 fails RL-03 on the bulk route', () => {
    const v = judge({ ...CLEAN, bulkCostsOne: true }, ['bulk-cost']);
    expect(v['RL-03']?.verdict).toBe('fail');
    expect(failedTests(v['RL-03']).join('\n')).toMatch(/trigger-bulk falls by its cost 100/);
  });

  test('categories sharing one bucket fail RL-06', () => {
    const v = judge({ ...CLEAN, sharedBuckets: true }, ['category-isolation']);
    expect(v['RL-06']?.verdict).toBe('fail');
  });

  test('no rate limiting at all fails RL-05 and leaves RL-04 not verified', () => {
    const v = judge({ ...CLEAN, triggerRefillFactor: 1000 }, ['trigger-limit']);
    expect(v['RL-05']?.verdict).toBe('fail');
    expect(v['RL-04']?.verdict).toBe('not-verified');
  });

  test('a timeline with more than 2% dropped requests supports no verdict', () => {
    const v = judge({ ...CLEAN, triggerRefillFactor: 1.5, dropEvery: 10 }, ['trigger-limit']);
    expect(v['RL-05']?.verdict).toBe('not-verified');
    expect(v['RL-05']?.tests.find((t) => t.decisive)?.message).toMatch(/dropped by the engine/);
  });

  test('RL-05 is not verified, never passed, when every check over the limit is not verified', () => {
    const timelines = ['trigger-limit', 'trigger-under-limit'].map((s) => simulate(planScenario(scenarioByName(s)!, 'short', RPS), CLEAN));
    // why: without a RateLimit-Policy there is no burst to check the interval bound or the convergence against
    for (const tl of timelines) for (const route of Object.values(tl.routes)) route.policies = [];
    const rl05 = judgeTimelines(timelines, RPS).find((r) => r.id === 'RL-05')!;
    expect(rl05.tests.filter((t) => t.status === 'passed').map((t) => t.name).join('\n')).toMatch(/gets no 429/);
    expect(rl05.tests.filter((t) => t.decisive).map((t) => t.status)).toEqual(['not-verified', 'not-verified', 'not-verified']);
    expect(rl05.verdict).toBe('not-verified');
  });

  test('a phase too short to drain the burst leaves convergence not verified', () => {
    const plan = planScenario(scenarioByName('trigger-limit')!, 'short', RPS, 0.3);
    const v = Object.fromEntries(judgeTimelines([simulate(plan, CLEAN)], RPS).map((r) => [r.id, r]));
    const convergence = v['RL-05']?.tests.find((t) => t.name.includes('converges'));
    expect(convergence?.status).toBe('not-verified');
    expect(convergence?.message).toMatch(/lengthen the phase/);
  });
});
