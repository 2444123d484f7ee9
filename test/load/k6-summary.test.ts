// The k6 path: a k6 end-of-test summary (threshold submetrics per route and 1 s bucket) becomes a timeline the
// same verdict judges. The summary here is derived from a simulated run, as k6 would have aggregated it.
import { describe, expect, test } from 'vitest';
import { bucketKey, routeKey, summaryToTimeline, type K6SummaryData } from '../../load/k6/summary-to-timeline.ts';
import { k6Streams } from '../../load/k6/streams.ts';
import { scenarioByName } from '../../load/scenarios/index.ts';
import { planScenario, type ScenarioPlan } from '../../load/scenarios/plan.ts';
import type { Timeline } from '../../load/timeline/format.ts';
import { judgeTimelines } from '../../load/verdict/judge.ts';
import { simulate, type SimTarget } from './synthetic-target.ts';

const CLEAN: SimTarget = { rps: { trigger: 200, configuration: 200, global: 600 }, w: 1 };

function asK6Summary(plan: ScenarioPlan, tl: Timeline): K6SummaryData {
  const metrics: K6SummaryData['metrics'] = {};
  const add = (key: string, n: number) => {
    const m = (metrics[key] ??= { type: 'counter', values: { count: 0 } });
    m.values.count = (m.values.count ?? 0) + n;
  };
  tl.buckets.forEach((bucket, i) => {
    const b = Math.floor((i * tl.bucketMs) / 1000);
    for (const [route, r] of Object.entries(bucket.routes)) {
      add(bucketKey('lt_sent', route, b), r.sent);
      add(bucketKey('lt_accepted', route, b), r.accepted);
      add(bucketKey('lt_throttled', route, b), r.throttled);
    }
  });
  for (const [route, r] of Object.entries(tl.routes)) {
    add(routeKey('lt_ra_missing', route), r.retryAfterMissing);
    if (r.remainingAccepted) metrics[routeKey('lt_rem_acc', route)] = { type: 'trend', values: { ...r.remainingAccepted, count: 1 } };
    if (r.remainingThrottled) metrics[routeKey('lt_rem_thr', route)] = { type: 'trend', values: { ...r.remainingThrottled, count: 1 } };
  }
  for (const s of k6Streams(plan)) metrics[`dropped_iterations{scenario:${s.id}}`] = { type: 'counter', values: { count: 0 } };
  return { metrics, state: { testRunDurationMs: plan.durationMs } };
}

function viaK6(target: SimTarget) {
  const plan = planScenario(scenarioByName('trigger-limit')!, 'short', 200);
  const tl = simulate(plan, target);
  const setup = { startedAt: new Date(0).toISOString(), policies: { trigger: { policy: tl.routes.trigger!.policies[0]!, limit: '200' } } };
  const k6tl = summaryToTimeline(plan, asK6Summary(plan, tl), setup);
  return { k6tl, verdicts: Object.fromEntries(judgeTimelines([k6tl], 200).map((v) => [v.id, v])) };
}

describe('k6 summary → timeline → verdict', () => {
  test('a clean run read back from k6 metrics passes RL-05 and RL-03 with 1 s buckets', () => {
    const { k6tl, verdicts } = viaK6(CLEAN);
    expect(k6tl).toMatchObject({ engine: 'k6', bucketMs: 1000, scenario: 'trigger-limit' });
    expect(k6tl.routes.trigger?.scheduled).toBe(2280);
    expect(verdicts['RL-05']?.tests.map((t) => `${t.status} ${t.name}`).filter((s) => !s.startsWith('passed'))).toEqual([]);
    expect(verdicts['RL-03']?.verdict).toBe('pass');
  });

  test('a too generous bucket read back from k6 metrics fails RL-05', () => {
    expect(viaK6({ ...CLEAN, triggerRefillFactor: 1.5 }).verdicts['RL-05']?.verdict).toBe('fail');
  });

  test('k6 streams: one constant-arrival-rate scenario per phase and route, idle phases skipped', () => {
    const plan = planScenario(scenarioByName('trigger-limit')!, 'full', 600);
    expect(k6Streams(plan).map((s) => [s.id, s.rps, s.startMs, s.durationMs])).toEqual([
      ['s0_over_limit_trigger', 900, 0, 25_000],
      ['s1_under_limit_trigger', 480, 31_000, 10_000],
    ]);
  });
});
