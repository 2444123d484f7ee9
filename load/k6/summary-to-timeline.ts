// Rebuilds the timeline format from k6's end-of-test summary (handleSummary data), so one verdict reads both engines.
import type { ScenarioPlan } from '../scenarios/plan.ts';
import { ROUTES, type RouteName } from '../scenarios/routes.ts';
import { emptyBucketRoute, TIMELINE_FORMAT, TIMELINE_FORMAT_VERSION, type BucketRoute, type MinMax, type Quantiles, type RouteSummary, type Timeline } from '../timeline/format.ts';
import { bucketCount, K6_BUCKET_MS, k6Streams, scheduledIn } from './streams.ts';

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

/** Per-bucket counters (tagged route and b) and per-route facts (tagged route). */
export const BUCKET_COUNTERS = ['lt_sent', 'lt_accepted', 'lt_throttled', 'lt_other', 'lt_errors'] as const;
export const ROUTE_COUNTERS = ['lt_ra_missing', 'lt_ra_invalid', 'lt_body_bad', 'lt_rem_missing'] as const;
export const ROUTE_TRENDS = ['lt_rem_acc', 'lt_rem_thr', 'lt_retry_after', 'lt_latency'] as const;

export const bucketKey = (metric: string, route: string, b: number) => `${metric}{route:${route},b:${b}}`;
export const routeKey = (metric: string, route: string) => `${metric}{route:${route}}`;

export function summaryToTimeline(plan: ScenarioPlan, data: K6SummaryData, setup?: SetupData): Timeline {
  const count = (key: string) => data.metrics[key]?.values.count ?? 0;
  const trend = (key: string) => data.metrics[key]?.values;
  const streams = k6Streams(plan);
  const routes = [...new Set(streams.map((s) => s.route))];
  const nb = bucketCount(plan);
  const buckets: Timeline['buckets'] = Array.from({ length: nb }, (_, b) => ({ t: b * K6_BUCKET_MS, routes: {} }));
  const summaries: Timeline['routes'] = {};
  for (const route of routes) {
    const mine = streams.filter((s) => s.route === route);
    const s: RouteSummary = emptyRouteSummary(route);
    for (let b = 0; b < nb; b++) {
      const br: BucketRoute = emptyBucketRoute();
      br.scheduled = mine.reduce((n, st) => n + scheduledIn(st, b), 0);
      br.sent = count(bucketKey('lt_sent', route, b));
      br.accepted = count(bucketKey('lt_accepted', route, b));
      br.throttled = count(bucketKey('lt_throttled', route, b));
      br.other = count(bucketKey('lt_other', route, b));
      br.errors = count(bucketKey('lt_errors', route, b));
      if (br.scheduled + br.sent > 0) buckets[b]!.routes[route] = br;
      s.scheduled += br.scheduled;
      s.sent += br.sent;
      s.errors += br.errors;
      if (br.accepted) s.statuses['2xx'] = (s.statuses['2xx'] ?? 0) + br.accepted;
      if (br.throttled) s.statuses['429'] = (s.statuses['429'] ?? 0) + br.throttled;
      if (br.other) s.statuses.other = (s.statuses.other ?? 0) + br.other;
    }
    s.dropped = mine.reduce((n, st) => n + count(`dropped_iterations{scenario:${st.id}}`), 0);
    s.retryAfterMissing = count(routeKey('lt_ra_missing', route));
    s.retryAfterInvalid = count(routeKey('lt_ra_invalid', route));
    s.bodyMalformed = count(routeKey('lt_body_bad', route));
    s.remainingMissing = count(routeKey('lt_rem_missing', route));
    s.remainingAccepted = minMax(trend(routeKey('lt_rem_acc', route)));
    s.remainingThrottled = minMax(trend(routeKey('lt_rem_thr', route)));
    s.retryAfter = minMax(trend(routeKey('lt_retry_after', route)));
    s.latencyMs = quantiles(trend(routeKey('lt_latency', route)));
    const probe = setup?.policies[ROUTES[route].category];
    if (probe?.policy) s.policies.push(probe.policy);
    if (probe?.limit) s.limits.push(probe.limit);
    summaries[route] = s;
  }
  return {
    format: TIMELINE_FORMAT,
    formatVersion: TIMELINE_FORMAT_VERSION,
    engine: 'k6',
    scenario: plan.scenario,
    startedAt: setup?.startedAt ?? new Date().toISOString(),
    durationMs: Math.round(data.state?.testRunDurationMs ?? plan.durationMs),
    bucketMs: K6_BUCKET_MS,
    plan,
    routes: summaries,
    buckets,
  };
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
  if (!v || v.max === undefined) return null;
  return { count: v.count ?? 0, mean: v.avg ?? 0, p50: v.med ?? 0, p90: v['p(90)'] ?? 0, p99: v['p(99)'] ?? 0, max: v.max };
}
