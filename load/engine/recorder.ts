// Aggregates every request of a run into the timeline format: per-bucket counts, per-route header facts, HDR latency.
import { SUITE_VERSION } from '../../report/suite-info.ts';
import type { ScenarioPlan } from '../scenarios/plan.ts';
import { ROUTES, type RouteName } from '../scenarios/routes.ts';
import { emptyBucketRoute, TIMELINE_FORMAT, TIMELINE_FORMAT_VERSION, type BucketRoute, type MinMax, type RouteSummary, type Timeline } from '../timeline/format.ts';
import { isNonNegativeInteger, isRateLimitBody } from '../timeline/rate-limit-body.ts';
import { newHistogram, quantiles, recordMs, type Histogram } from './histogram.ts';

export type HeaderGetter = (name: string) => string | undefined;

interface RouteState {
  summary: RouteSummary;
  latency: Histogram;
  lag: Histogram;
}

const MAX_DISTINCT = 5;
const MAX_EXAMPLES = 3;

export class TimelineRecorder {
  private readonly buckets: Partial<Record<RouteName, BucketRoute>>[];
  private readonly routes = new Map<RouteName, RouteState>();

  constructor(
    private readonly plan: ScenarioPlan,
    readonly bucketMs = 100,
  ) {
    this.buckets = Array.from({ length: Math.max(1, Math.ceil(plan.durationMs / bucketMs)) }, () => ({}));
  }

  scheduled(route: RouteName, scheduledMs: number): void {
    this.bucket(route, scheduledMs).scheduled += 1;
    this.state(route).summary.scheduled += 1;
  }

  dropped(route: RouteName, scheduledMs: number): void {
    this.bucket(route, scheduledMs).dropped += 1;
    this.state(route).summary.dropped += 1;
  }

  sent(route: RouteName, scheduledMs: number, sentMs: number): void {
    this.bucket(route, sentMs).sent += 1;
    // why: how far the generator fell behind its schedule decides whether an interval can be judged
    const planned = this.bucket(route, scheduledMs);
    planned.lagMaxMs = Math.max(planned.lagMaxMs ?? 0, Math.round((sentMs - scheduledMs) * 10) / 10);
    const s = this.state(route);
    s.summary.sent += 1;
    recordMs(s.lag, sentMs - scheduledMs);
  }

  failed(route: RouteName, sentMs: number): void {
    this.bucket(route, sentMs).errors += 1;
    this.state(route).summary.errors += 1;
  }

  /** `body` is only needed for non-2xx responses (429 body shape, examples). */
  response(route: RouteName, scheduledMs: number, sentMs: number, doneMs: number, status: number, header: HeaderGetter, body: string | undefined): void {
    // why: the target decides when the request arrives, so outcomes are bucketed by send time, not schedule
    const b = this.bucket(route, sentMs);
    const st = this.state(route);
    const s = st.summary;
    recordMs(st.latency, doneMs - scheduledMs);
    // why: the target acted somewhere between send and answer, so late answers blur when it counted a request
    b.latency = widen(b.latency ?? null, Math.round((doneMs - sentMs) * 10) / 10);
    s.statuses[status] = (s.statuses[status] ?? 0) + 1;
    const accepted = status >= 200 && status < 300;
    if (accepted) b.accepted += 1;
    else if (status === 429) b.throttled += 1;
    else b.other += 1;
    addDistinct(s.policies, header('ratelimit-policy'));
    addDistinct(s.limits, header('ratelimit-limit'));
    const remaining = header('ratelimit-remaining');
    if (remaining === undefined || !isNonNegativeInteger(remaining)) s.remainingMissing += 1;
    else {
      b.remaining = widen(b.remaining ?? null, Number(remaining));
      if (accepted) s.remainingAccepted = widen(s.remainingAccepted, Number(remaining));
      else if (status === 429) s.remainingThrottled = widen(s.remainingThrottled, Number(remaining));
    }
    if (status === 429) {
      const retryAfter = header('retry-after');
      if (retryAfter === undefined) s.retryAfterMissing += 1;
      else if (!isNonNegativeInteger(retryAfter)) s.retryAfterInvalid += 1;
      else s.retryAfter = widen(s.retryAfter, Number(retryAfter));
      const wellFormed = body !== undefined && isRateLimitBody(body);
      if (!wellFormed) s.bodyMalformed += 1;
      if (s.examples.length < MAX_EXAMPLES && (!wellFormed || retryAfter === undefined || s.examples.length === 0)) {
        s.examples.push({ status, headers: rateLimitHeaders(header), body: (body ?? '').slice(0, 300) });
      }
    } else if (!accepted && s.examples.length < MAX_EXAMPLES) {
      s.examples.push({ status, headers: rateLimitHeaders(header), body: (body ?? '').slice(0, 300) });
    }
  }

  toTimeline(engine: Timeline['engine'], startedAt: Date, durationMs: number): Timeline {
    const routes: Timeline['routes'] = {};
    for (const [name, st] of this.routes) routes[name] = { ...st.summary, latencyMs: quantiles(st.latency), sendLagMs: quantiles(st.lag) };
    return {
      format: TIMELINE_FORMAT,
      formatVersion: TIMELINE_FORMAT_VERSION,
      engine,
      // why: the built-in engine is the suite's own code: its version is the suite's
      engineVersion: SUITE_VERSION,
      scenario: this.plan.scenario,
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(durationMs),
      bucketMs: this.bucketMs,
      plan: this.plan,
      routes,
      buckets: this.buckets.map((r, i) => ({ t: i * this.bucketMs, routes: r })),
    };
  }

  private bucket(route: RouteName, scheduledMs: number): BucketRoute {
    const i = Math.min(this.buckets.length - 1, Math.max(0, Math.floor(scheduledMs / this.bucketMs)));
    const b = this.buckets[i]!;
    return (b[route] ??= emptyBucketRoute());
  }

  private state(route: RouteName): RouteState {
    let s = this.routes.get(route);
    if (!s) {
      s = { summary: emptySummary(route), latency: newHistogram(), lag: newHistogram() };
      this.routes.set(route, s);
    }
    return s;
  }
}

export function emptySummary(route: RouteName): RouteSummary {
  return {
    cost: ROUTES[route].cost,
    category: ROUTES[route].category,
    scheduled: 0,
    sent: 0,
    dropped: 0,
    errors: 0,
    statuses: {},
    policies: [],
    limits: [],
    remainingAccepted: null,
    remainingThrottled: null,
    remainingMissing: 0,
    retryAfterMissing: 0,
    retryAfterInvalid: 0,
    bodyMalformed: 0,
    retryAfter: null,
    latencyMs: null,
    sendLagMs: null,
    examples: [],
  };
}

function addDistinct(list: string[], value: string | undefined): void {
  if (value !== undefined && list.length < MAX_DISTINCT && !list.includes(value)) list.push(value);
}

function widen(m: MinMax | null, v: number): MinMax {
  return m ? { min: Math.min(m.min, v), max: Math.max(m.max, v) } : { min: v, max: v };
}

function rateLimitHeaders(header: HeaderGetter): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'retry-after']) {
    const v = header(n);
    if (v !== undefined) out[n] = v;
  }
  return out;
}
