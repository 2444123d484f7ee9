// Rebuilds the timeline format from k6's end-of-test summary (handleSummary data), so one verdict reads both engines.
import type { ScenarioPlan } from '../scenarios/plan.ts';
import { ROUTES, type RouteName } from '../scenarios/routes.ts';
import { emptyBucketRoute, TIMELINE_FORMAT, TIMELINE_FORMAT_VERSION, type BucketCount, type BucketRoute, type MinMax, type Quantiles, type RouteSummary, type Timeline } from '../timeline/format.ts';
import { parseSegment, shareOf } from '../timeline/segment.ts';
import { bucketCount, k6Streams, scheduledIn } from './streams.ts';

/** The part of k6's summary data this reads: metrics and threshold-defined submetrics by name. */
export interface K6SummaryData {
  metrics: Record<string, { type: string; values: Record<string, number> } | undefined>;
  state?: { testRunDurationMs?: number };
}

export interface SetupData {
  startedAt: string;
  /** RateLimit-Policy / RateLimit-Limit of each category, from one probe request in setup(). */
  policies: Record<string, { policy?: string; limit?: string }>;
}

/** What the script knows about its own run, beside the summary. */
export interface K6RunInfo {
  bucketMs: number;
  /** The base URL the script sent to (CONFORMANCE_TARGET). */
  target?: string;
  runId?: string;
  /** k6 `--execution-segment` / `--execution-segment-sequence` of this instance, when split. */
  segment?: string;
  segmentSequence?: string;
}

/** Per-bucket outcomes (tagged route and b) by send time; sent is their sum, scheduled comes from the plan. */
export const BUCKET_COUNTERS = ['lt_accepted', 'lt_throttled', 'lt_other', 'lt_errors'] as const;
/** Per-bucket trends (tagged route and b): RateLimit-Remaining and answer time by send time, send lag by schedule. */
export const BUCKET_TRENDS = ['lt_rem', 'lt_lag', 'lt_rt'] as const;
export const ROUTE_COUNTERS = ['lt_ra_missing', 'lt_ra_invalid', 'lt_body_bad', 'lt_rem_missing'] as const;
export const ROUTE_TRENDS = ['lt_rem_acc', 'lt_rem_thr', 'lt_retry_after', 'lt_latency', 'lt_send_lag'] as const;
/** Responses per route and status (tagged route and status). */
export const STATUS_COUNTER = 'lt_status';
/** Wall-clock ms of the plan's time 0 on this instance (a gauge: its min). */
export const ORIGIN_GAUGE = 'lt_origin';

/** Statuses counted one by one; any other is counted by its class (`4xx`). Each is one submetric per route. */
export const LISTED_STATUSES = [200, 201, 202, 204, 400, 401, 403, 404, 405, 408, 409, 413, 415, 422, 429, 500, 502, 503, 504] as const;
export const STATUS_TAGS = [...LISTED_STATUSES.map(String), '1xx', '2xx', '3xx', '4xx', '5xx'];

export function statusTag(status: number): string {
  return (LISTED_STATUSES as readonly number[]).includes(status) ? String(status) : `${Math.floor(status / 100)}xx`;
}

export const bucketKey = (metric: string, route: string, b: number) => `${metric}{route:${route},b:${b}}`;
export const routeKey = (metric: string, route: string) => `${metric}{route:${route}}`;
export const statusKey = (route: string, tag: string) => `${STATUS_COUNTER}{route:${route},status:${tag}}`;

export function summaryToTimeline(plan: ScenarioPlan, data: K6SummaryData, setup: SetupData | undefined, run: K6RunInfo): Timeline {
  const count = (key: string) => data.metrics[key]?.values.count ?? 0;
  const trend = (key: string) => data.metrics[key]?.values;
  const streams = k6Streams(plan);
  const routes = [...new Set(streams.map((s) => s.route))];
  const nb = bucketCount(plan, run.bucketMs);
  const buckets: Timeline['buckets'] = Array.from({ length: nb }, (_, b) => ({ t: b * run.bucketMs, routes: {} }));
  const summaries: Timeline['routes'] = {};
  // why: a k6 starved of CPU may skip ticks without counting them as dropped, so what was planned comes from the plan
  const share: [number, number] | undefined = run.segment ? parseSegment(run.segment) : [0, 1];
  if (!share) throw new Error(`"${run.segment}" is not an execution segment`);
  for (const route of routes) {
    const mine = streams.filter((s) => s.route === route);
    // why: summaries of the script before it summed outcomes (the 1 s layout) carry lt_sent per bucket
    const hasSent = data.metrics[bucketKey('lt_sent', route, 0)] !== undefined;
    const s: RouteSummary = emptyRouteSummary(route);
    for (let b = 0; b < nb; b++) {
      const br: BucketRoute = emptyBucketRoute();
      br.scheduled = shareOf(mine.reduce((n, st) => n + scheduledIn(st, b, run.bucketMs), 0), share);
      br.accepted = count(bucketKey('lt_accepted', route, b));
      br.throttled = count(bucketKey('lt_throttled', route, b));
      br.other = count(bucketKey('lt_other', route, b));
      br.errors = count(bucketKey('lt_errors', route, b));
      br.sent = hasSent ? count(bucketKey('lt_sent', route, b)) : br.accepted + br.throttled + br.other + br.errors;
      // why: a trend with no sample in the bucket reads 0, so each fact is kept only where there were samples
      const rem = trend(bucketKey('lt_rem', route, b));
      if (rem?.min !== undefined && rem.max !== undefined && br.accepted + br.throttled + br.other > 0) br.remaining = { min: rem.min, max: rem.max };
      const lag = trend(bucketKey('lt_lag', route, b));
      if (lag?.max !== undefined && br.scheduled > 0) br.lagMaxMs = lag.max;
      const rt = trend(bucketKey('lt_rt', route, b));
      if (rt?.min !== undefined && rt.max !== undefined && br.accepted + br.throttled + br.other > 0) br.latency = { min: rt.min, max: rt.max };
      if (br.scheduled + br.sent > 0) buckets[b]!.routes[route] = br;
      s.scheduled += br.scheduled;
      s.sent += br.sent;
      s.errors += br.errors;
    }
    // why: planned and never sent is dropped, whether k6 counted it (dropped_iterations) or silently skipped it
    s.dropped = Math.max(mine.reduce((n, st) => n + count(`dropped_iterations{scenario:${st.id}}`), 0), s.scheduled - s.sent);
    s.statuses = statusesOf(data, route, buckets);
    s.retryAfterMissing = count(routeKey('lt_ra_missing', route));
    s.retryAfterInvalid = count(routeKey('lt_ra_invalid', route));
    s.bodyMalformed = count(routeKey('lt_body_bad', route));
    s.remainingMissing = count(routeKey('lt_rem_missing', route));
    s.remainingAccepted = minMax(trend(routeKey('lt_rem_acc', route)));
    s.remainingThrottled = minMax(trend(routeKey('lt_rem_thr', route)));
    s.retryAfter = minMax(trend(routeKey('lt_retry_after', route)));
    s.latencyMs = quantiles(trend(routeKey('lt_latency', route)));
    s.sendLagMs = quantiles(trend(routeKey('lt_send_lag', route)));
    const probe = setup?.policies[ROUTES[route].category];
    if (probe?.policy) s.policies.push(probe.policy);
    if (probe?.limit) s.limits.push(probe.limit);
    summaries[route] = s;
  }
  const origin = data.metrics[ORIGIN_GAUGE]?.values.min;
  return {
    format: TIMELINE_FORMAT,
    formatVersion: TIMELINE_FORMAT_VERSION,
    engine: 'k6',
    scenario: plan.scenario,
    ...(run.target ? { target: run.target } : {}),
    ...(run.runId ? { runId: run.runId } : {}),
    ...(run.segment ? { segment: run.segment, ...(run.segmentSequence ? { segmentSequence: run.segmentSequence } : {}) } : {}),
    startedAt: origin !== undefined && origin > 0 ? new Date(origin).toISOString() : (setup?.startedAt ?? new Date().toISOString()),
    durationMs: Math.round(data.state?.testRunDurationMs ?? plan.durationMs),
    bucketMs: run.bucketMs,
    plan,
    routes: summaries,
    buckets,
  };
}

function statusesOf(data: K6SummaryData, route: RouteName, buckets: Timeline['buckets']): Record<string, number> {
  const out: Record<string, number> = {};
  const keys = STATUS_TAGS.map((tag) => [tag, data.metrics[statusKey(route, tag)]] as const);
  if (keys.some(([, m]) => m !== undefined)) {
    for (const [tag, m] of keys) if (m?.values.count) out[tag] = m.values.count;
    return out;
  }
  const sum = (field: BucketCount) => buckets.reduce((n, b) => n + (b.routes[route]?.[field] ?? 0), 0);
  for (const [key, field] of [['2xx', 'accepted'], ['429', 'throttled'], ['other', 'other']] as const) if (sum(field) > 0) out[key] = sum(field);
  return out;
}

function emptyRouteSummary(route: RouteName): RouteSummary {
  return {
    cost: ROUTES[route].cost, category: ROUTES[route].category, scheduled: 0, sent: 0, dropped: 0, errors: 0, statuses: {},
    policies: [], limits: [], remainingAccepted: null, remainingThrottled: null, remainingMissing: 0,
    retryAfterMissing: 0, retryAfterInvalid: 0, bodyMalformed: 0, retryAfter: null, latencyMs: null, sendLagMs: null, examples: [],
  };
}

function minMax(v: Record<string, number> | undefined): MinMax | null {
  return v && v.count !== 0 && v.max !== undefined && v.min !== undefined ? { min: v.min, max: v.max } : null;
}

function quantiles(v: Record<string, number> | undefined): Quantiles | null {
  if (!v || v.max === undefined || v.count === 0) return null;
  return { count: v.count ?? 0, mean: v.avg ?? 0, p50: v.med ?? 0, p90: v['p(90)'] ?? 0, p99: v['p(99)'] ?? 0, max: v.max };
}
