// Every scenario, starved three ways, against a correct bucket: no rule fails, and the rules judged on the starved
// interval are not-verified. Starved: the generator's timers stall (sends late, in a burst); requests leave on time but
// wait in its connection pool while the process is starved (answers ever later, then bunched); both at once.
import { describe, expect, test } from 'vitest';
import { SCENARIO_NAMES, scenarioByName } from '../../load/scenarios/index.ts';
import { planScenario } from '../../load/scenarios/plan.ts';
import { judgeTimelines, type LoadRuleVerdict } from '../../load/verdict/judge.ts';
import { simulate, type SimTarget } from './synthetic-target.ts';

const RPS = 200;
const CLEAN: SimTarget = { rps: { trigger: RPS, configuration: 200, global: 600 }, w: 1 };

/** Requests sent in [fromMs, toMs) reach the target ever later, up to maxMs (a pool queue growing), then in order again. */
const growingQueue = (fromMs: number, toMs: number, maxMs: number) => (sentMs: number) =>
  sentMs >= fromMs && sentMs < toMs ? (maxMs * (sentMs - fromMs)) / (toMs - fromMs) : sentMs >= toMs && sentMs < toMs + maxMs ? Math.max(0, toMs + maxMs - sentMs) : 0;
/** Requests sent in [fromMs, toMs) all reach the target at toMs (a pool stalled while its timers still fired). */
const stalledQueue = (fromMs: number, toMs: number) => (sentMs: number) => (sentMs >= fromMs && sentMs < toMs ? toMs - sentMs : 0);

/** Per scenario, where its judged traffic runs (ms): the starvation is put there. */
const JUDGED: Record<string, { fromMs: number; toMs: number }> = {
  'trigger-limit': { fromMs: 1000, toMs: 5000 },
  'trigger-under-limit': { fromMs: 2000, toMs: 6000 },
  'headers-under-load': { fromMs: 2000, toMs: 7000 },
  'bulk-cost': { fromMs: 1000, toMs: 3500 },
  'category-isolation': { fromMs: 1000, toMs: 4500 },
};

const STARVATIONS = {
  'the generator stalls 1.5 s': (w: { fromMs: number }) => ({ stall: { fromMs: w.fromMs + 500, toMs: w.fromMs + 2000 } }),
  'answers grow 1 s late (pool queue)': (w: { fromMs: number; toMs: number }) => ({ arrivalDelayMs: growingQueue(w.fromMs, w.toMs, 1000) }),
  'requests wait 1.5 s in the pool, then leave at once': (w: { fromMs: number }) => ({ arrivalDelayMs: stalledQueue(w.fromMs + 500, w.fromMs + 2000) }),
} satisfies Record<string, (w: { fromMs: number; toMs: number }) => Partial<SimTarget>>;

function judge(scenario: string, target: SimTarget): Record<string, LoadRuleVerdict> {
  const timeline = simulate(planScenario(scenarioByName(scenario)!, 'short', RPS), target);
  return Object.fromEntries(judgeTimelines([timeline], RPS).map((v) => [v.id, v]));
}
const failures = (v: Record<string, LoadRuleVerdict>) =>
  Object.values(v).flatMap((r) => r.tests.filter((t) => t.status === 'failed').map((t) => `${r.id} ${t.name}: ${t.message}`));

describe('a starved run gives no load verdict, in any scenario', () => {
  const cases = SCENARIO_NAMES.flatMap((scenario) => Object.keys(STARVATIONS).map((how) => ({ scenario, how: how as keyof typeof STARVATIONS })));
  test.for(cases)('$scenario, $how: no check fails, RL-05 is never pass', ({ scenario, how }) => {
    const v = judge(scenario, { ...CLEAN, ...STARVATIONS[how](JUDGED[scenario]!) });
    expect(failures(v)).toEqual([]);
    expect(v['RL-05']?.verdict ?? 'absent').not.toBe('pass');
  });

  test('the scenarios that throttle trigger are not-verified on RL-05 with the reason, for each starvation', () => {
    for (const scenario of ['trigger-limit', 'headers-under-load', 'category-isolation']) {
      for (const how of Object.keys(STARVATIONS) as (keyof typeof STARVATIONS)[]) {
        const v = judge(scenario, { ...CLEAN, ...STARVATIONS[how](JUDGED[scenario]!) });
        const reasons = (v['RL-05']?.tests ?? []).filter((t) => t.decisive && t.status === 'not-verified').map((t) => t.message ?? '');
        expect(`${scenario} / ${how}: ${v['RL-05']?.verdict}`).toBe(`${scenario} / ${how}: not-verified`);
        expect(reasons.join('\n'), `${scenario} / ${how}`).toMatch(/^(the load generator fell behind its schedule|the answers came too late to tell when the target counted the requests) in \[/m);
      }
    }
  });

  test('a growing queue is what made a correct bucket fail the interval bound: the late-answer guard names it', () => {
    const v = judge('category-isolation', { ...CLEAN, arrivalDelayMs: growingQueue(1000, 4500, 1000) });
    const bound = v['RL-05']!.tests.find((t) => t.name.includes('accepted trigger tokens in every interval'))!;
    expect(bound.status).toBe('not-verified');
    expect(bound.message).toMatch(/^the answers came too late to tell when the target counted the requests in \[[\d.]+ s, [\d.]+ s\): .*\d+ ms.*conformance load --one-at-a-time/);
  });

  test('a timeline without per-bucket answer times (an older k6 summary) falls back to the longest answer: no fail', () => {
    const timeline = simulate(planScenario(scenarioByName('category-isolation')!, 'short', RPS), { ...CLEAN, arrivalDelayMs: growingQueue(1000, 4500, 1000) });
    for (const b of timeline.buckets) for (const r of Object.values(b.routes)) delete r.latency;
    const v = Object.fromEntries(judgeTimelines([timeline], RPS).map((r) => [r.id, r]));
    expect(failures(v)).toEqual([]);
    expect(v['RL-05']?.tests.find((t) => t.name.includes('every interval'))?.message).toMatch(/^the answers came too late .* answered up to \d+ ms after the interval/);
  });

  test('bulk subscribers answered ever later (up to 2 s): RL-08 does not fail a correct 2/s bucket', () => {
    const v = judge('bulk-cost', { ...CLEAN, arrivalDelayMs: growingQueue(500, 3500, 2000) });
    expect(v['RL-08']?.verdict, JSON.stringify(v['RL-08']?.tests.map((t) => t.message))).not.toBe('warn');
  });

  test('bunched arrivals below the limit (429s a correct bucket gives them) are not-verified, not a failed no-429 check', () => {
    const v = judge('trigger-under-limit', { ...CLEAN, arrivalDelayMs: stalledQueue(2500, 4000) });
    const no429 = v['RL-05']!.tests.find((t) => t.name.includes('gets no 429'))!;
    expect(no429.status).toBe('not-verified');
    expect(no429.message).toMatch(/got 429 below the limit, but answers took up to \d+ ms/);
  });
});

describe('the guards still judge a run that kept to its plan', () => {
  const slow = { arrivalDelayMs: () => 300 };
  test('300 ms on every answer: a correct bucket passes RL-05 and RL-06', () => {
    const v = Object.fromEntries(
      judgeTimelines(['trigger-limit', 'category-isolation'].map((s) => simulate(planScenario(scenarioByName(s)!, 'short', RPS), { ...CLEAN, ...slow })), RPS).map((r) => [r.id, r]),
    );
    expect(v['RL-05']?.verdict, JSON.stringify(v['RL-05']?.tests.map((t) => t.message))).toBe('pass');
    expect(v['RL-06']?.verdict).toBe('pass');
  });

  test('300 ms on every answer: a bucket refilling 1.5× or 2/3 of the limit still fails RL-05', () => {
    expect(judge('trigger-limit', { ...CLEAN, ...slow, triggerRefillFactor: 1.5 })['RL-05']?.verdict).toBe('fail');
    expect(judge('trigger-limit', { ...CLEAN, ...slow, triggerRefillFactor: 2 / 3 })['RL-05']?.verdict).toBe('fail');
  });

  test('a queue growing 1 s lets no bucket refilling 1.5× or 2/3 of the limit pass', () => {
    for (const triggerRefillFactor of [1.5, 2 / 3]) expect(judge('trigger-limit', { ...CLEAN, triggerRefillFactor, arrivalDelayMs: growingQueue(1000, 5000, 1000) })['RL-05']?.verdict).not.toBe('pass');
  });
});
