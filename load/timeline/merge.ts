// One test split by k6 across instances (--execution-segment, the k6-operator's parallelism) wrote one timeline per
// instance: their segments must tile 0:1, and their counts add up to the timeline one instance would have written.
import type { MinMax, Quantiles, RouteSummary, Timeline } from './format.ts';
import { parseSegment } from './segment.ts';

export class MergeError extends Error {}

const COUNTS = ['scheduled', 'sent', 'dropped', 'errors', 'accepted', 'throttled', 'other'] as const;

/** Instances started further apart than this did not run one test together. */
export const MAX_START_SPREAD_MS = 1000;

/** One timeline per scenario: a lone timeline as it is, the segments of a split run merged. */
export function mergeTimelines(timelines: Timeline[]): Timeline[] {
  const byScenario = new Map<string, Timeline[]>();
  for (const tl of timelines) byScenario.set(tl.scenario, [...(byScenario.get(tl.scenario) ?? []), tl]);
  return [...byScenario.values()].map((group) => (group.length === 1 && !group[0]!.segment ? group[0]! : mergeSegments(group)));
}

function mergeSegments(group: Timeline[]): Timeline {
  const scenario = group[0]!.scenario;
  if (group.some((t) => !t.segment)) throw new MergeError(`${group.length} timelines of ${scenario}, not all from one split run (each instance of a split run records its --execution-segment): judge separate runs one at a time`);
  const plan = JSON.stringify(group[0]!.plan);
  if (group.some((t) => JSON.stringify(t.plan) !== plan)) throw new MergeError(`the timelines of ${scenario} were recorded with different plans: every instance must run the same scenario, profile and limits`);
  const bucketMs = group[0]!.bucketMs;
  if (group.some((t) => t.bucketMs !== bucketMs)) throw new MergeError(`the timelines of ${scenario} have different bucket widths`);
  checkTiling(scenario, group.map((t) => t.segment!));
  const origins = group.map((t) => Date.parse(t.startedAt));
  const t0 = Math.min(...origins);
  const spread = Math.max(...origins) - t0;
  if (!(spread <= MAX_START_SPREAD_MS)) {
    throw new MergeError(`the instances of ${scenario} started ${(spread / 1000).toFixed(2)} s apart: start them together (the k6-operator does; by hand, start each with --paused and resume them at once)`);
  }
  // why: buckets count from each instance's own start; the target saw them on one clock
  const shifts = origins.map((o) => Math.round((o - t0) / bucketMs));
  const length = Math.max(...group.map((t, i) => t.buckets.length + shifts[i]!));
  const buckets: Timeline['buckets'] = Array.from({ length }, (_, b) => ({ t: b * bucketMs, routes: {} }));
  group.forEach((tl, i) => {
    tl.buckets.forEach((bucket, b) => {
      const into = buckets[b + shifts[i]!]!.routes;
      for (const [route, r] of Object.entries(bucket.routes) as [keyof typeof into, NonNullable<(typeof into)[keyof typeof into]>][]) {
        const sum = (into[route] ??= { scheduled: 0, sent: 0, dropped: 0, errors: 0, accepted: 0, throttled: 0, other: 0 });
        for (const k of COUNTS) sum[k] += r[k];
        if (r.lagMaxMs !== undefined) sum.lagMaxMs = Math.max(sum.lagMaxMs ?? 0, r.lagMaxMs);
        if (r.latency) sum.latency = sum.latency ? { min: Math.min(sum.latency.min, r.latency.min), max: Math.max(sum.latency.max, r.latency.max) } : { ...r.latency };
        if (r.remaining) sum.remaining = sum.remaining ? { min: Math.min(sum.remaining.min, r.remaining.min), max: Math.max(sum.remaining.max, r.remaining.max) } : { ...r.remaining };
      }
    });
  });
  const routes: Timeline['routes'] = {};
  for (const tl of group) {
    for (const [route, r] of Object.entries(tl.routes) as [keyof Timeline['routes'], RouteSummary][]) routes[route] = routes[route] ? mergeRoute(routes[route], r) : structuredClone(r);
  }
  const { runId: _runId, segment: _segment, segmentSequence: _sequence, ...first } = group[0]!;
  return {
    ...first,
    mergedSegments: group.map((t) => t.segment!).sort(),
    startedAt: new Date(t0).toISOString(),
    durationMs: Math.max(...group.map((t, i) => t.durationMs + shifts[i]! * bucketMs)),
    routes,
    buckets,
  };
}

function checkTiling(scenario: string, segments: string[]): void {
  const parsed = segments.map((s) => ({ s, range: parseSegment(s) }));
  const bad = parsed.find((p) => !p.range);
  if (bad) throw new MergeError(`${scenario}: "${bad.s}" is not an execution segment`);
  const sorted = parsed.map((p) => ({ s: p.s, from: p.range![0], to: p.range![1] })).sort((a, b) => a.from - b.from);
  const eps = 1e-9;
  let at = 0;
  for (const p of sorted) {
    if (p.from < at - eps) throw new MergeError(`${scenario}: segments overlap at ${p.s} (one timeline per instance, each instance once)`);
    if (p.from > at + eps) throw new MergeError(`${scenario}: no timeline covers ${fraction(at)}:${fraction(p.from)} of the test (an instance's timeline is missing)`);
    at = p.to;
  }
  if (at < 1 - eps) throw new MergeError(`${scenario}: no timeline covers ${fraction(at)}:1 of the test (an instance's timeline is missing)`);
}

const fraction = (v: number) => String(Math.round(v * 1e6) / 1e6);

function mergeRoute(a: RouteSummary, b: RouteSummary): RouteSummary {
  const statuses = { ...a.statuses };
  for (const [k, n] of Object.entries(b.statuses)) statuses[k] = (statuses[k] ?? 0) + n;
  return {
    ...a,
    scheduled: a.scheduled + b.scheduled,
    sent: a.sent + b.sent,
    dropped: a.dropped + b.dropped,
    errors: a.errors + b.errors,
    statuses,
    policies: [...new Set([...a.policies, ...b.policies])].slice(0, 5),
    limits: [...new Set([...a.limits, ...b.limits])].slice(0, 5),
    remainingAccepted: widen(a.remainingAccepted, b.remainingAccepted),
    remainingThrottled: widen(a.remainingThrottled, b.remainingThrottled),
    remainingMissing: a.remainingMissing + b.remainingMissing,
    retryAfterMissing: a.retryAfterMissing + b.retryAfterMissing,
    retryAfterInvalid: a.retryAfterInvalid + b.retryAfterInvalid,
    bodyMalformed: a.bodyMalformed + b.bodyMalformed,
    retryAfter: widen(a.retryAfter, b.retryAfter),
    latencyMs: upperQuantiles(a.latencyMs, b.latencyMs),
    sendLagMs: upperQuantiles(a.sendLagMs, b.sendLagMs),
    examples: [...a.examples, ...b.examples].slice(0, 3),
  };
}

function widen(a: MinMax | null, b: MinMax | null): MinMax | null {
  if (!a || !b) return a ?? b;
  return { min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) };
}

/** Quantiles do not add up; the larger of each is an upper bound, which keeps the verdict's latency slack honest. */
function upperQuantiles(a: Quantiles | null, b: Quantiles | null): Quantiles | null {
  if (!a || !b) return a ?? b;
  const count = a.count + b.count;
  return { count, mean: count ? (a.mean * a.count + b.mean * b.count) / count : 0, p50: Math.max(a.p50, b.p50), p90: Math.max(a.p90, b.p90), p99: Math.max(a.p99, b.p99), max: Math.max(a.max, b.max) };
}
