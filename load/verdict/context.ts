// What every load check reads: one timeline, the documented limit, its parsed policies and bucket arithmetic.
import { parseRateLimitPolicy, type RateLimitPolicy } from '../../schemas/rate-limit-policy.ts';
import type { RuleTest } from '../../report/verdicts.ts';
import type { PlannedPhase } from '../scenarios/plan.ts';
import type { RouteName } from '../scenarios/routes.ts';
import type { BucketCount, Timeline } from '../timeline/format.ts';

export interface CheckContext {
  tl: Timeline;
  /** The documented trigger limit (RL-05: 600/s; lower in the short profile's embedded reference). */
  expectedRps: number;
  bucketS: number;
  /** Why this timeline cannot support a verdict (engine dropped or lost too much), if so. */
  unreliable?: string;
}

/** Dropped + transport errors above this share make a timeline's checks not-verified rather than pass/fail. */
export const MAX_LOST_SHARE = 0.02;
/** How every reason of a generator behind its schedule starts (a rule with such a test is never `pass`: see judge.ts). */
export const GENERATOR_BEHIND = 'the load generator fell behind its schedule';
/** The hint every reason of a starved or slowed run ends with. */
export const STARVED_HINT = "free the machine's CPU, or run the scenarios one at a time (conformance load --one-at-a-time)";
/** How the whole-timeline reason ends, whatever was lost (a rule with such a test is never `pass` either). */
export const NO_TIMELINE_VERDICT = 'the timeline cannot support a verdict';

export function contextOf(tl: Timeline, expectedRps: number): CheckContext {
  let scheduled = 0;
  let dropped = 0;
  let errors = 0;
  for (const r of Object.values(tl.routes)) {
    scheduled += r.scheduled;
    dropped += r.dropped;
    errors += r.errors;
  }
  const ctx: CheckContext = { tl, expectedRps, bucketS: tl.bucketMs / 1000 };
  const over = `over ${MAX_LOST_SHARE * 100}%`;
  // why: planned and never sent is the generator's shortfall (starved, stopped, or its in-flight cap full), so the hint says how to free it
  if (scheduled > 0 && dropped / scheduled > MAX_LOST_SHARE) {
    ctx.unreliable = `${dropped} of ${scheduled} requests were dropped by the engine, planned and never sent (${over}): ${NO_TIMELINE_VERDICT} (${STARVED_HINT})`;
  } else if (scheduled > 0 && (dropped + errors) / scheduled > MAX_LOST_SHARE) {
    ctx.unreliable = `${dropped + errors} of ${scheduled} requests were dropped by the engine or got no response (${over}): ${NO_TIMELINE_VERDICT}`;
  }
  return ctx;
}

export function routesOf(tl: Timeline, category?: string): RouteName[] {
  return (Object.keys(tl.routes) as RouteName[]).filter((r) => category === undefined || tl.routes[r]!.category === category);
}

/** The first RateLimit-Policy of a category that parses (all routes of a category share one bucket). */
export function policyOf(tl: Timeline, category: string): { policy: RateLimitPolicy; header: string } | { error: string } {
  let error = `no response of category "${category}" carried RateLimit-Policy`;
  for (const r of routesOf(tl, category)) {
    for (const header of tl.routes[r]!.policies) {
      const parsed = parseRateLimitPolicy(header);
      if (parsed.ok) return { policy: parsed.policy, header };
      error = parsed.error;
    }
  }
  return { error };
}

/** Bucket indices [from, to) lying wholly inside a phase. */
export function phaseBuckets(ctx: CheckContext, phase: PlannedPhase): [number, number] {
  const from = Math.ceil(phase.startMs / ctx.tl.bucketMs);
  const to = Math.min(ctx.tl.buckets.length, Math.floor((phase.startMs + phase.durationMs) / ctx.tl.bucketMs));
  return [from, Math.max(from, to)];
}

/** Per-bucket sum of `field` over routes, weighted by token cost when `byCost`. */
export function series(ctx: CheckContext, routes: RouteName[], field: BucketCount, byCost = false): number[] {
  return ctx.tl.buckets.map((b) => routes.reduce((n, r) => n + (b.routes[r]?.[field] ?? 0) * (byCost ? ctx.tl.routes[r]!.cost : 1), 0));
}

export function sum(values: number[], from = 0, to = values.length): number {
  let n = 0;
  for (let i = from; i < to; i++) n += values[i] ?? 0;
  return n;
}

export function firstIndex(values: number[], from: number, to: number, pred: (v: number) => boolean): number {
  for (let i = from; i < to; i++) if (pred(values[i] ?? 0)) return i;
  return -1;
}

/** How late the target may act on a request relative to its send time: its p99 latency, clamped to [50, 500] ms. */
export function slackS(ctx: CheckContext, routes: RouteName[]): number {
  const p99 = Math.max(0, ...routes.map((r) => ctx.tl.routes[r]?.latencyMs?.p99 ?? 0));
  return Math.min(0.5, Math.max(0.05, p99 / 1000));
}

export function test(ctx: CheckContext, rule: string, title: string, status: RuleTest['status'], message: string, evidence: string[] = []): RuleTest {
  const unreliable = ctx.unreliable !== undefined && status !== 'not-verified';
  return {
    name: `load ${ctx.tl.scenario} (${ctx.tl.engine}): ${title} [${rule}]`,
    status: unreliable ? 'not-verified' : status,
    durationMs: ctx.tl.durationMs,
    message: unreliable ? ctx.unreliable! : message,
    ...(evidence.length > 0 ? { evidence } : {}),
  };
}

export const fmt = (n: number, digits = 1) => (Number.isInteger(n) ? String(n) : n.toFixed(digits));
