// The k6 view of a plan: one constant-arrival-rate scenario per (phase, route) stream, and the timeline buckets.
import type { ScenarioPlan, PlannedStream } from '../scenarios/plan.ts';

/** k6 buckets are 1 s: each bucket's counts come back as one threshold-tagged submetric. */
export const K6_BUCKET_MS = 1000;

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

export function bucketCount(plan: ScenarioPlan): number {
  return Math.max(1, Math.ceil(plan.durationMs / K6_BUCKET_MS));
}

/** Requests of a stream scheduled in bucket b (its arrivals are evenly spaced). */
export function scheduledIn(s: PlannedStream, b: number): number {
  const interval = 1000 / s.rps;
  let n = 0;
  for (let i = 0; i < s.count; i++) {
    const t = s.startMs + i * interval;
    if (t >= b * K6_BUCKET_MS && t < (b + 1) * K6_BUCKET_MS) n++;
  }
  return n;
}
