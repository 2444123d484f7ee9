// RL-05 needs evidence above the limit: a run whose over-limit phases could not be judged is not `pass`, however well
// the target did below the limit; the declared rate is read from every scenario's answers, in either policy syntax.
import { describe, expect, test } from 'vitest';
import { parseRateLimitQuota } from '../../schemas/rate-limit-policy.ts';
import { scenarioByName } from '../../load/scenarios/index.ts';
import { planScenario } from '../../load/scenarios/plan.ts';
import type { Timeline } from '../../load/timeline/format.ts';
import { judgeTimelines, type LoadRuleVerdict } from '../../load/verdict/judge.ts';
import { simulate, type SimTarget } from './synthetic-target.ts';

const RPS = 200;
const CLEAN: SimTarget = { rps: { trigger: RPS, configuration: 200, global: 600 }, w: 1 };
// why: a slow road drops a tenth of what the over-limit scenarios send (over the 2% a verdict allows); the under-limit one keeps up
const DROPPING = { dropEvery: 10 };

const run = (scenario: string, target: SimTarget) => simulate(planScenario(scenarioByName(scenario)!, 'short', RPS), target);
const rl05 = (timelines: Timeline[]): LoadRuleVerdict => judgeTimelines(timelines, RPS).find((v) => v.id === 'RL-05')!;
const lines = (v: LoadRuleVerdict) => v.tests.map((t) => `${t.status}${t.decisive ? ' (decisive)' : ''}: ${t.name} — ${t.message}`).join('\n');

describe('RL-05 is pass only when a phase above the limit was judged', () => {
  test('a run of the under-limit scenario alone is not-verified, naming the missing over-limit phase', () => {
    const v = rl05([run('trigger-under-limit', CLEAN)]);
    expect(v.verdict, lines(v)).toBe('not-verified');
    expect(lines(v)).toMatch(/not-verified \(decisive\): .*a phase above the trigger limit was judged \[RL-05\] — no scenario of the run offered the trigger category more than its limit allows/);
  });

  test('the interval bound of an under-limit scenario, which every target passes, does not decide RL-05', () => {
    const v = rl05([run('trigger-under-limit', CLEAN)]);
    const bound = v.tests.find((t) => t.name.includes('every interval'))!;
    expect(bound.status).toBe('passed');
    expect(bound.decisive).toBeUndefined();
  });

  test('over-limit scenarios that dropped too much to count, beside an under-limit one that passed: not-verified', () => {
    const v = rl05([run('trigger-limit', { ...CLEAN, ...DROPPING }), run('trigger-under-limit', CLEAN), run('category-isolation', { ...CLEAN, ...DROPPING }), run('headers-under-load', { ...CLEAN, ...DROPPING })]);
    expect(v.verdict, lines(v)).toBe('not-verified');
  });

  test('the same run against a target that refills at 1.5× the limit and declares it: fail from its declared policy, never pass', () => {
    const generous: SimTarget = { ...CLEAN, rps: { ...CLEAN.rps, trigger: RPS * 1.5 } };
    const v = rl05([run('trigger-limit', { ...generous, ...DROPPING }), run('trigger-under-limit', generous), run('category-isolation', { ...generous, ...DROPPING })]);
    expect(v.verdict, lines(v)).toBe('fail');
    expect(lines(v)).toMatch(/failed: .*declares 200\/s \[RL-05\] — the trigger limit is 200\/s, but RateLimit-Policy "300;w=1;burst=330.*" declares 300 per 1 s = 300\/s/);
  });

  test('the declared rate is read from every scenario, not only the first', () => {
    const other: SimTarget = { ...CLEAN, rps: { ...CLEAN.rps, trigger: RPS * 1.5 } };
    const v = rl05([run('trigger-under-limit', CLEAN), run('bulk-cost', CLEAN), run('headers-under-load', other)]);
    const declared = v.tests.find((t) => t.name.includes('RateLimit-Policy of the trigger category'))!;
    expect(declared.status).toBe('failed');
    expect(declared.message).toMatch(/"300;w=1;burst=330.*" declares 300 per 1 s/);
  });
});

describe('the declared rate in the IETF structured syntax', () => {
  const withPolicy = (policy: string) => {
    const tl = run('trigger-limit', CLEAN);
    tl.routes.trigger!.policies = [policy];
    return tl;
  };
  const declared = (policy: string) => rl05([withPolicy(policy)]).tests.find((t) => t.name.includes('RateLimit-Policy of the trigger category'))!;

  test('"trigger";q=1000;w=5 declares 200/s: passed; q=1500 is 300/s: failed', () => {
    expect(declared('"trigger";q=1000;w=5')).toMatchObject({ status: 'passed', message: expect.stringMatching(/declares 200\/s/) });
    expect(declared('"trigger";q=1500;w=5')).toMatchObject({ status: 'failed', message: expect.stringMatching(/declares 1500 per 5 s = 300\/s/) });
  });

  test('parseRateLimitQuota: both syntaxes, the shortest window of a list, and clear errors', () => {
    expect(parseRateLimitQuota('3000;w=5;burst=3300;comment="token bucket"')).toEqual({ ok: true, limit: 3000, w: 5, burst: 3300, syntax: 'deployed' });
    expect(parseRateLimitQuota('"trigger";q=200;w=1')).toEqual({ ok: true, limit: 200, w: 1, syntax: 'ietf' });
    expect(parseRateLimitQuota('"day";q=100000;w=86400, "burst";q=600;w=1')).toEqual({ ok: true, limit: 600, w: 1, syntax: 'ietf' });
    for (const [header, why] of [
      ['"trigger";w=1', 'lacks an integer q='],
      ['"trigger";q=200', 'lacks a positive integer w='],
      ['"trigger";q=200;w=0', 'lacks a positive integer w='],
      ['"a";q=1;w=1, b;q=2;w=1', 'without a quoted name'],
      ['q=200;w=1', 'starts with neither an integer limit'],
    ] as const) {
      const parsed = parseRateLimitQuota(header);
      expect(parsed.ok ? 'ok' : parsed.error, header).toContain(why);
    }
  });
});

// Behind 300 ms on every answer the generator dropped a fifth of what the over-limit scenarios send and never offered
// more than the target's own declared 900/s, so no over-limit phase was judged. The declared policy is another kind of
// evidence: the target's own statement of its limit, read from its answers whatever rate the load reached.
describe('a slow road: the declared policy is judged, the load is not', () => {
  const SLOW_ROAD = { dropEvery: 5 };
  const OVER_LIMIT = ['trigger-limit', 'headers-under-load', 'category-isolation'];
  const runAt = (limit: number, scenario: string, target: SimTarget) => simulate(planScenario(scenarioByName(scenario)!, 'short', limit), target);
  const judgedAt = (limit: number, target: SimTarget) => judgeTimelines([...OVER_LIMIT, 'trigger-under-limit'].map((s) => runAt(limit, s, s === 'trigger-under-limit' ? target : { ...target, ...SLOW_ROAD })), limit).find((v) => v.id === 'RL-05')!;

  test('a target declaring 1.5× the documented limit fails RL-05 from its header alone, saying the load was not needed for it', () => {
    const v = judgedAt(RPS, { ...CLEAN, rps: { ...CLEAN.rps, trigger: RPS * 1.5 } });
    expect(v.verdict, lines(v)).toBe('fail');
    const failed = v.tests.filter((t) => t.status === 'failed');
    expect(failed.map((t) => t.name)).toEqual([expect.stringContaining('RateLimit-Policy of the trigger category declares 200/s')]);
    expect(failed[0]!.message).toMatch(/declares 300 per 1 s = 300\/s.*: the target's own statement of its limit, judged whatever rate the load reached; no phase above the limit was judged/);
    // every check of the load itself is left to a run whose generator keeps up
    expect(v.tests.filter((t) => t.decisive && t.status !== 'not-verified').map((t) => t.name)).toEqual([]);
  });

  test('the same target on a plan declared at its own 1.5× rate (judged there): not-verified, never fail', () => {
    const v = judgedAt(RPS * 1.5, { ...CLEAN, rps: { ...CLEAN.rps, trigger: RPS * 1.5 } });
    expect(v.verdict, lines(v)).toBe('not-verified');
    expect(v.tests.filter((t) => t.status === 'failed')).toEqual([]);
  });

  test('a generator that kept up and offered more than the limit: a target that admits more than it declares fails on the load itself', () => {
    const clean = judgeTimelines([...OVER_LIMIT, 'trigger-under-limit'].map((s) => runAt(RPS, s, { ...CLEAN, triggerRefillFactor: 1.5 })), RPS).find((x) => x.id === 'RL-05')!;
    expect(clean.verdict, lines(clean)).toBe('fail');
    expect(clean.tests.filter((t) => t.status === 'failed' && t.decisive).length, lines(clean)).toBeGreaterThan(0);
  });
});
