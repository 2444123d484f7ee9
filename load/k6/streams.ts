// The k6 view of a plan: one constant-arrival-rate scenario per (phase, route) stream, and the timeline buckets.
import type { ScenarioPlan, PlannedStream } from '../scenarios/plan.ts';

/** Finest k6 bucket: as fine as the built-in engine's, so the RL-05 interval bound is as tight. */
export const K6_MIN_BUCKET_MS = 100;
/** Each bucket is a threshold-named submetric per route and counter; longer plans get wider buckets. */
export const K6_MAX_BUCKETS = 600;

export interface K6Stream extends PlannedStream {
  /** k6 scenario name, e.g. `s0_over_limit_trigger`. */
  id: string;
  phase: string;
  expectNo429: boolean;
}

export function k6Streams(plan: ScenarioPlan): K6Stream[] {
  const out: K6Stream[] = [];
  plan.phases.forEach((phase) => {
    for (const s of phase.streams) {
      if (s.count === 0) continue;
      out.push({ ...s, id: `s${out.length}_${phase.name}_${s.route}`.replace(/[^A-Za-z0-9_]/g, '_'), phase: phase.name, expectNo429: phase.expect.includes('no-429') });
    }
  });
  return out;
}

/** k6 rates are per 100 s so fractional per-second rates stay exact; iteration i starts i·interval after the stream. */
export const k6Rate = (s: PlannedStream) => Math.round(s.rps * 100);
export const k6IntervalMs = (s: PlannedStream) => 100_000 / k6Rate(s);

export function k6BucketMs(plan: ScenarioPlan): number {
  return Math.max(K6_MIN_BUCKET_MS, Math.ceil(plan.durationMs / K6_MAX_BUCKETS / K6_MIN_BUCKET_MS) * K6_MIN_BUCKET_MS);
}

export function bucketCount(plan: ScenarioPlan, bucketMs: number): number {
  return Math.max(1, Math.ceil(plan.durationMs / bucketMs));
}

/** The bucket of a plan time; a request stamped at (or past) the plan's end belongs to the last bucket. */
export function bucketOf(planMs: number, bucketMs: number, count: number): number {
  return Math.min(count - 1, Math.max(0, Math.floor(planMs / bucketMs)));
}

/** Requests of a stream scheduled in bucket b (its arrivals are evenly spaced). */
export function scheduledIn(s: PlannedStream, b: number, bucketMs: number): number {
  const interval = 1000 / s.rps;
  let n = 0;
  for (let i = 0; i < s.count; i++) {
    const t = s.startMs + i * interval;
    if (t >= b * bucketMs && t < (b + 1) * bucketMs) n++;
  }
  return n;
}
