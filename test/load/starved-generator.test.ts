// A load generator starved of CPU sends late, in bursts, or not at all: the intervals it fell behind on are
// not-verified with the lag as the reason — never fail, never pass — and one that kept up still catches a broken limit.
import { describe, expect, test } from 'vitest';
import { scenarioByName } from '../../load/scenarios/index.ts';
import { planScenario } from '../../load/scenarios/plan.ts';
import { judgeTimelines, type LoadRuleVerdict } from '../../load/verdict/judge.ts';
import { simulate, type SimTarget } from './synthetic-target.ts';

const RPS = 200;
const CLEAN: SimTarget = { rps: { trigger: RPS, configuration: 200, global: 600 }, w: 1 };
// why: 1.5 s without a send in the over-limit phase outlasts the burst's 1.1 s, so a correct bucket caps and loses tokens
const STALL = { fromMs: 3000, toMs: 4500 };

function judge(target: SimTarget, scenario = 'trigger-limit'): Record<string, LoadRuleVerdict> {
  const timeline = simulate(planScenario(scenarioByName(scenario)!, 'short', RPS), target);
  return Object.fromEntries(judgeTimelines([timeline], RPS).map((v) => [v.id, v]));
}
const statuses = (v: LoadRuleVerdict | undefined) => (v?.tests ?? []).map((t) => t.status);
const messages = (v: LoadRuleVerdict | undefined) => (v?.tests ?? []).map((t) => t.message ?? '').join('\n');

describe('a starved load generator yields no verdict', () => {
  test('a correct target behind a generator that stalled 1.5 s: RL-05 not-verified, naming the lag and the interval', () => {
    const v = judge({ ...CLEAN, stall: STALL });
    expect(v['RL-05']?.verdict).toBe('not-verified');
    expect(statuses(v['RL-05'])).not.toContain('failed');
    expect(messages(v['RL-05'])).toMatch(/load generator fell behind its schedule in \[2\.\d+ s, 5\.\d+ s\) \(\d+ request\(s\) overdue at 4\.50 s, sends up to 1500 ms late: \d+ tokens owed, over the [\d.]+ allowed/);
  });

  test('the same stall passes no broken limit: a bucket refilling 1.5× too fast is never pass', () => {
    expect(judge({ ...CLEAN, triggerRefillFactor: 1.5, stall: STALL })['RL-05']?.verdict).not.toBe('pass');
  });

  test('RL-06 behind a stalled generator is not-verified too', () => {
    const v = judge({ ...CLEAN, stall: { fromMs: 2000, toMs: 3500 } }, 'category-isolation');
    expect(v['RL-06']?.verdict).toBe('not-verified');
    expect(messages(v['RL-06'])).toMatch(/fell behind its schedule/);
  });

  test('dropped requests in the judged window count against the bound although the run lost under 2%', () => {
    const v = judge({ ...CLEAN, dropEvery: 60 });
    expect(v['RL-05']?.verdict).toBe('not-verified');
    expect(messages(v['RL-05'])).toMatch(/fell behind its schedule in .*\d+ dropped/);
  });

  // why: every scenario's envelope and convergence checks share the guard; a stall at any point of any scenario judges nothing it touched
  test.for(['trigger-limit', 'trigger-under-limit', 'headers-under-load', 'bulk-cost', 'category-isolation'])('%s stalled 1.5 s at one, two, three or four fifths of its length: no rule fails, no rate rule passes', (scenario) => {
    const plan = planScenario(scenarioByName(scenario)!, 'short', RPS);
    for (const at of [0.2, 0.4, 0.6, 0.8]) {
      const fromMs = Math.round(plan.durationMs * at);
      const verdicts = judgeTimelines([simulate(plan, { ...CLEAN, stall: { fromMs, toMs: fromMs + 1500 } })], RPS);
      const where = `${scenario} stalled at ${fromMs} ms`;
      expect(verdicts.filter((v) => v.verdict === 'fail').map((v) => `${v.id}: ${messages(v)}`), where).toEqual([]);
      for (const id of ['RL-05', 'RL-06', 'RL-08']) expect(`${id} ${verdicts.find((v) => v.id === id)?.verdict}`, where).not.toBe(`${id} pass`);
    }
  });

  test('a scenario whose engine dropped over 2% keeps the rule from pass, although another scenario judged it and it held', () => {
    const plan = (scenario: string) => planScenario(scenarioByName(scenario)!, 'short', RPS);
    const held = simulate(plan('trigger-limit'), CLEAN);
    const lossy = simulate(plan('category-isolation'), { ...CLEAN, dropEvery: 20 });
    expect(judgeTimelines([held], RPS).find((v) => v.id === 'RL-05')?.verdict).toBe('pass');
    const rl05 = judgeTimelines([held, lossy], RPS).find((v) => v.id === 'RL-05');
    expect(rl05?.verdict).toBe('not-verified');
    expect(messages(rl05)).toMatch(/\d+ of \d+ requests were dropped by the engine, planned and never sent \(over 2%\): the timeline cannot support a verdict \(free the machine's CPU/);
  });

  test('a generator within the bound (20 ms late) still judges: a correct bucket passes, one refilling 1.5× or 2/3 fails', () => {
    const late = { fromMs: 3000, toMs: 3020 };
    expect(judge({ ...CLEAN, stall: late })['RL-05']?.verdict).toBe('pass');
    expect(judge({ ...CLEAN, stall: late, triggerRefillFactor: 1.5 })['RL-05']?.verdict).toBe('fail');
    expect(judge({ ...CLEAN, stall: late, triggerRefillFactor: 2 / 3 })['RL-05']?.verdict).toBe('fail');
  });
});
