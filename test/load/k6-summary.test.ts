// The k6 path: k6's end-of-test summary (threshold submetrics per route and bucket) becomes a timeline the same
// verdict judges. Two summaries are what a real k6 v1.3.0 passed to handleSummary (fixtures/README.md); the rest
// are derived from simulated runs, as k6 would have aggregated them.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { bucketKey, routeKey, statusKey, statusTag, summaryToTimeline, type K6SummaryData, type SetupData } from '../../load/k6/summary-to-timeline.ts';
import { k6BucketMs, k6Streams } from '../../load/k6/streams.ts';
import { scenarioByName } from '../../load/scenarios/index.ts';
import { planScenario, type ScenarioPlan } from '../../load/scenarios/plan.ts';
import type { Timeline } from '../../load/timeline/format.ts';
import { judgeTimelines, type LoadRuleVerdict } from '../../load/verdict/judge.ts';
import { simulate, type SimTarget } from './synthetic-target.ts';

const CLEAN: SimTarget = { rps: { trigger: 200, configuration: 200, global: 600 }, w: 1 };
type RealSummary = K6SummaryData & { setup_data: { setup: SetupData }; metrics: Record<string, { type: string; values: Record<string, number> }> };
const real = (name: string) => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as RealSummary;
const byId = (verdicts: LoadRuleVerdict[]) => Object.fromEntries(verdicts.map((v) => [v.id, v]));
const notPassed = (v: LoadRuleVerdict | undefined) => (v?.tests ?? []).filter((t) => t.status !== 'passed').map((t) => `${t.status}: ${t.name} — ${t.message}`);
const bucketSum = (tl: Timeline, route: keyof Timeline['routes'], field: 'sent' | 'scheduled' | 'accepted' | 'throttled') => tl.buckets.reduce((n, b) => n + (b.routes[route]?.[field] ?? 0), 0);

function asK6Summary(plan: ScenarioPlan, tl: Timeline, bucketMs: number): K6SummaryData {
  const metrics: K6SummaryData['metrics'] = {};
  const add = (key: string, n: number) => {
    const m = (metrics[key] ??= { type: 'counter', values: { count: 0 } });
    m.values.count = (m.values.count ?? 0) + n;
  };
  tl.buckets.forEach((bucket, i) => {
    const b = Math.floor((i * tl.bucketMs) / bucketMs);
    for (const [route, r] of Object.entries(bucket.routes)) {
      add(bucketKey('lt_accepted', route, b), r.accepted);
      add(bucketKey('lt_throttled', route, b), r.throttled);
      // the answer-time trend per send bucket, as the script records it (lt_rt)
      if (r.latency) {
        const key = bucketKey('lt_rt', route, b);
        const prev = metrics[key]?.values;
        metrics[key] = { type: 'trend', values: { min: Math.min(prev?.min ?? Infinity, r.latency.min), max: Math.max(prev?.max ?? 0, r.latency.max), count: 1 } };
      }
    }
  });
  for (const [route, r] of Object.entries(tl.routes)) {
    add(routeKey('lt_ra_missing', route), r.retryAfterMissing);
    for (const [status, n] of Object.entries(r.statuses)) add(statusKey(route, statusTag(Number(status))), n);
    if (r.remainingAccepted) metrics[routeKey('lt_rem_acc', route)] = { type: 'trend', values: { ...r.remainingAccepted, count: 1 } };
    if (r.remainingThrottled) metrics[routeKey('lt_rem_thr', route)] = { type: 'trend', values: { ...r.remainingThrottled, count: 1 } };
  }
  for (const s of k6Streams(plan)) metrics[`dropped_iterations{scenario:${s.id}}`] = { type: 'counter', values: { count: 0 } };
  return { metrics, state: { testRunDurationMs: plan.durationMs } };
}

function viaK6(target: SimTarget, edit: (data: K6SummaryData) => void = () => {}, scenario = 'trigger-limit') {
  const plan = planScenario(scenarioByName(scenario)!, 'short', 200);
  const tl = simulate(plan, target);
  // what the script's setup() probed: each category's policy, as its first route declared it
  const policies = Object.fromEntries(Object.values(tl.routes).reverse().filter((r) => r.policies[0]).map((r) => [r.category, { policy: r.policies[0]!, limit: '200' }]));
  const setup = { startedAt: new Date(0).toISOString(), policies };
  const data = asK6Summary(plan, tl, k6BucketMs(plan));
  edit(data);
  const k6tl = summaryToTimeline(plan, data, setup, { bucketMs: k6BucketMs(plan) });
  return { tl, k6tl, verdicts: byId(judgeTimelines([k6tl], 200)) };
}

describe('k6 summary → timeline → verdict', () => {
  test('a real k6 v1.3.0 summary: every request lands in a 100 ms bucket, with its status code and latency from the schedule', () => {
    const data = real('k6-v1.3.0-summary-category-isolation.json');
    // the plan the runner passed (LOAD_PLAN): short profile, embedded reference at 200/s w=1, fitted to its declared bursts
    const declared = { trigger: { burst: 220, ratePerS: 200 }, configuration: { burst: 220, ratePerS: 200 }, global: { burst: 660, ratePerS: 600 } };
    const plan = planScenario(scenarioByName('category-isolation')!, 'short', 200, 1, declared);
    const tl = summaryToTimeline(plan, data, data.setup_data.setup, { bucketMs: k6BucketMs(plan), runId: 'fixture' });
    expect(tl).toMatchObject({ engine: 'k6', bucketMs: 100, runId: 'fixture', startedAt: new Date(data.metrics.lt_origin!.values.min!).toISOString() });
    expect(tl.buckets).toHaveLength(57);
    // k6 starts up to one iteration more per stream (here 1768 for 1766 planned); the script sends nothing for them
    expect(data.metrics.iterations!.values.count).toBe(plan.requestCount + 2);
    // 1766 load requests, one workflow created, three policy probes, three deletions in teardown
    expect(data.metrics.http_reqs!.values.count).toBe(plan.requestCount + 7);
    for (const route of ['trigger', 'environment-variables', 'environments'] as const) {
      const r = tl.routes[route]!;
      const planned = plan.phases[0]!.streams.find((s) => s.route === route)!.count;
      expect({ route, scheduled: r.scheduled, sent: r.sent, bucketed: bucketSum(tl, route, 'sent') }).toEqual({ route, scheduled: planned, sent: planned, bucketed: planned });
      expect(r.latencyMs!.count).toBe(planned);
      expect(r.sendLagMs!.p50).toBeLessThanOrEqual(r.latencyMs!.p50);
    }
    expect(tl.routes.trigger!.statuses).toEqual({ 201: 1358, 429: 352 });
    expect(tl.routes.environments!.statuses).toEqual({ 200: 28 });
    const v = byId(judgeTimelines([tl], 200));
    for (const id of ['RL-04', 'RL-05', 'RL-06']) expect({ id, notPassed: notPassed(v[id]) }).toEqual({ id, notPassed: [] });
    const bound = v['RL-05']!.tests.find((t) => t.name.includes('every interval'))!;
    expect(bound.evidence?.join('\n')).toMatch(/slack 200·\(0\.10 \+/);
  });

  test('a real summary of the earlier 1 s layout: classes instead of codes, and the requests past the last bucket were lost', () => {
    const data = real('k6-v1.3.0-summary-category-isolation-1s-layout.json');
    const plan = planScenario(scenarioByName('category-isolation')!, 'short', 600);
    const tl = summaryToTimeline(plan, data, data.setup_data.setup, { bucketMs: 1000 });
    expect(tl.buckets).toHaveLength(5);
    expect(tl.routes.trigger!.statuses).toEqual({ '2xx': 2097, 429: 2402 });
    expect(tl.routes.trigger!.scheduled).toBe(4500);
    // the defect this layout had: 4553 requests answered, 4549 in its buckets
    const answered = ['trigger', 'environment-variables', 'environments'].reduce((n, r) => n + data.metrics[routeKey('lt_latency', r)]!.values.count!, 0);
    const bucketed = (['trigger', 'environment-variables', 'environments'] as const).reduce((n, r) => n + bucketSum(tl, r, 'sent'), 0);
    expect([answered, bucketed]).toEqual([4553, 4549]);
    // judged at the rate that target declared (1000;w=5 = 200/s): RL-06 and RL-04 still hold
    const v = byId(judgeTimelines([tl], 200));
    expect(v['RL-06']?.verdict).toBe('pass');
    expect(v['RL-04']?.verdict).toBe('pass');
  });

  test('a clean run read back from k6 metrics passes RL-05 and RL-03, and its RL-05 bound is as tight as the built-in engine\'s', () => {
    const { tl, k6tl, verdicts } = viaK6(CLEAN);
    expect(k6tl).toMatchObject({ engine: 'k6', bucketMs: 100, scenario: 'trigger-limit' });
    expect(k6tl.routes.trigger?.scheduled).toBe(2280);
    expect(notPassed(verdicts['RL-05'])).toEqual([]);
    expect(verdicts['RL-03']?.verdict).toBe('pass');
    const boundOf = (timeline: Timeline) => Number(/= (\d+(\.\d+)?)$/.exec(byId(judgeTimelines([timeline], 200))['RL-05']!.tests.find((t) => t.name.includes('every interval'))!.evidence![1]!)![1]);
    expect(Math.abs(boundOf(k6tl) - boundOf(tl)) / boundOf(tl)).toBeLessThanOrEqual(0.1);
  });

  test('iterations a starved k6 never started, counted as dropped or not, leave the timeline without a verdict', () => {
    // k6 skips ticks it is too late for when the duration ends, without counting them in dropped_iterations
    const { k6tl, verdicts } = viaK6({ ...CLEAN, triggerRefillFactor: 1.5 }, (data) => {
      for (let b = 30; b < 40; b++) {
        delete data.metrics[bucketKey('lt_accepted', 'trigger', b)];
        delete data.metrics[bucketKey('lt_throttled', 'trigger', b)];
      }
    });
    expect(k6tl.routes.trigger!.dropped).toBe(k6tl.routes.trigger!.scheduled - k6tl.routes.trigger!.sent);
    expect(k6tl.routes.trigger!.dropped).toBeGreaterThan(0.02 * k6tl.routes.trigger!.scheduled);
    expect(verdicts['RL-05']?.verdict).toBe('not-verified');
    expect(verdicts['RL-05']?.tests.find((t) => t.decisive)?.message).toMatch(/dropped by the engine, planned and never sent .*: the timeline cannot support a verdict/);
  });

  test.for(['trigger-limit', 'headers-under-load', 'category-isolation'])('%s: a k6 whose answers grew 1 s late (starved) gives no fail and RL-05 not-verified, from its lt_rt trend', (scenario) => {
    const late = (sentMs: number) => (sentMs >= 1000 && sentMs < 4500 ? (1000 * (sentMs - 1000)) / 3500 : 0);
    const { k6tl, verdicts } = viaK6({ ...CLEAN, arrivalDelayMs: late }, () => {}, scenario);
    expect(k6tl.buckets.some((b) => (b.routes.trigger?.latency?.max ?? 0) > 500)).toBe(true);
    expect(Object.values(verdicts).filter((v) => v.verdict === 'fail').map((v) => notPassed(v))).toEqual([]);
    expect(verdicts['RL-05']?.verdict).toBe('not-verified');
    expect(verdicts['RL-05']?.tests.filter((t) => t.decisive).map((t) => t.message).join('\n')).toMatch(/the answers came too late/);
  });

  test('a tenth of a second a starved k6 skipped in the judged window, under 2% of the run, leaves that window not verified', () => {
    const { k6tl, verdicts } = viaK6({ ...CLEAN, skip: { fromMs: 3500, toMs: 3600 } });
    expect(k6tl.routes.trigger!.dropped).toBeLessThanOrEqual(0.02 * k6tl.routes.trigger!.scheduled);
    expect(verdicts['RL-05']?.verdict).toBe('not-verified');
    expect(verdicts['RL-05']?.tests.map((t) => t.message).join('\n')).toMatch(/fell behind its schedule in \[2\.\d+ s, 5\.\d+ s\) \(30 request\(s\) overdue at 3\.60 s/);
  });

  // why: the same guard as the built-in engine's (starved-generator.test.ts), read back from k6's metrics, in every scenario
  test.for(['trigger-limit', 'trigger-under-limit', 'headers-under-load', 'bulk-cost', 'category-isolation'])('%s: a k6 stalled 1.5 s at one, two, three or four fifths of its length fails no rule and passes no rate rule', (scenario) => {
    const length = planScenario(scenarioByName(scenario)!, 'short', 200).durationMs;
    for (const at of [0.2, 0.4, 0.6, 0.8]) {
      const fromMs = Math.round(length * at);
      const { verdicts } = viaK6({ ...CLEAN, stall: { fromMs, toMs: fromMs + 1500 } }, () => {}, scenario);
      const where = `${scenario} stalled at ${fromMs} ms`;
      expect(Object.values(verdicts).filter((v) => v.verdict === 'fail').map((v) => notPassed(v)), where).toEqual([]);
      for (const id of ['RL-05', 'RL-06', 'RL-08']) expect(`${id} ${verdicts[id]?.verdict}`, where).not.toBe(`${id} pass`);
    }
  });

  test('k6\'s per-bucket RateLimit-Remaining and send lag land in the timeline, only in buckets that had samples', () => {
    const { k6tl } = viaK6(CLEAN, (data) => {
      data.metrics[bucketKey('lt_rem', 'trigger', 30)] = { type: 'trend', values: { min: 0, max: 12, avg: 3, med: 2 } };
      data.metrics[bucketKey('lt_lag', 'trigger', 30)] = { type: 'trend', values: { min: 0, max: 85, avg: 3, med: 2 } };
      // bucket 40: k6 skipped its ticks, so its Remaining trend has no sample and reads 0
      delete data.metrics[bucketKey('lt_accepted', 'trigger', 40)];
      delete data.metrics[bucketKey('lt_throttled', 'trigger', 40)];
      data.metrics[bucketKey('lt_rem', 'trigger', 40)] = { type: 'trend', values: { min: 0, max: 0, avg: 0, med: 0 } };
    });
    expect(k6tl.buckets[30]!.routes.trigger).toMatchObject({ remaining: { min: 0, max: 12 }, lagMaxMs: 85 });
    expect(k6tl.buckets[40]!.routes.trigger!.scheduled).toBeGreaterThan(0);
    expect(k6tl.buckets[40]!.routes.trigger!.remaining).toBeUndefined();
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

  test('k6 buckets stay at 100 ms up to a minute of plan and widen beyond, so the submetrics stay bounded', () => {
    const at = (scale: number) => k6BucketMs(planScenario(scenarioByName('trigger-limit')!, 'full', 600, scale));
    expect([at(1), at(2), at(10)]).toEqual([100, 200, 700]);
  });
});
