// The recorded timeline both engines write and the verdict reads (format version 1). Pure data types.
import type { RouteName } from '../scenarios/routes.ts';
import type { PlannedPhase, ScenarioPlan } from '../scenarios/plan.ts';

export const TIMELINE_FORMAT = 'notification-api-conformance/load-timeline';
export const TIMELINE_FORMAT_VERSION = 1;

/** One route's traffic in one bucket. */
export interface BucketRoute {
  scheduled: number;
  sent: number;
  /** Not sent: the engine's in-flight cap was hit (open model: never delayed instead). */
  dropped: number;
  /** Sent but no HTTP response (timeout, reset). */
  errors: number;
  /** 2xx responses. */
  accepted: number;
  /** 429 responses. */
  throttled: number;
  /** Any other status. */
  other: number;
  /** Built-in engine: the latest any request scheduled in this bucket left, in ms after its schedule. */
  lagMaxMs?: number;
  /** Built-in engine: RateLimit-Remaining on the responses to requests sent in this bucket. */
  remaining?: MinMax;
  /** How long the answers to requests sent in this bucket took from their send, in ms (the target acted in between). */
  latency?: MinMax;
}

/** The counted fields of a bucket (the rest are facts: lag, Remaining, latency). */
export type BucketCount = Exclude<keyof BucketRoute, 'lagMaxMs' | 'remaining' | 'latency'>;

export interface MinMax {
  min: number;
  max: number;
}

export interface Quantiles {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface RouteSummary {
  cost: number;
  category: string;
  scheduled: number;
  sent: number;
  dropped: number;
  errors: number;
  statuses: Record<string, number>;
  /** Distinct RateLimit-Policy / RateLimit-Limit values seen (first few). */
  policies: string[];
  limits: string[];
  /** RateLimit-Remaining on 2xx responses, and on 429 responses. */
  remainingAccepted: MinMax | null;
  remainingThrottled: MinMax | null;
  /** Responses without RateLimit-Remaining. */
  remainingMissing: number;
  /** 429s without Retry-After, with a Retry-After that is not a non-negative integer, with a malformed body. */
  retryAfterMissing: number;
  retryAfterInvalid: number;
  bodyMalformed: number;
  retryAfter: MinMax | null;
  /** Latency from the scheduled time (no coordinated omission), and send lag (sent − scheduled), in ms. */
  latencyMs: Quantiles | null;
  sendLagMs: Quantiles | null;
  /** A few raw 429/odd responses for the report (headers and body, truncated). */
  examples: { status: number; headers: Record<string, string>; body: string }[];
}

export interface Timeline {
  format: typeof TIMELINE_FORMAT;
  formatVersion: typeof TIMELINE_FORMAT_VERSION;
  engine: 'node' | 'k6';
  /** The engine's version: the suite's for the built-in engine, what `k6 version` printed for k6 (absent in older timelines). */
  engineVersion?: string;
  scenario: string;
  /** The base URL the load was sent to (a report's target is compared with it before a merge). */
  target?: string;
  /** The k6 runner's id of the run that wrote this file (a stale file from another run has another). */
  runId?: string;
  /** k6 only: this instance's `--execution-segment` (and sequence) when one test was split across instances. */
  segment?: string;
  segmentSequence?: string;
  /** The segments this timeline was merged from (`conformance load --from-timelines`). */
  mergedSegments?: string[];
  /** Wall-clock time of the plan's time 0. */
  startedAt: string;
  durationMs: number;
  bucketMs: number;
  plan: ScenarioPlan;
  routes: Partial<Record<RouteName, RouteSummary>>;
  /** buckets[i] covers [i·bucketMs, (i+1)·bucketMs) from the start: scheduled/dropped by scheduled time, the rest by send time. */
  buckets: { t: number; routes: Partial<Record<RouteName, BucketRoute>> }[];
  /** Cut short by a Ctrl-C at `atMs`: `plan.phases` keeps the phases that ended before; these did not. */
  interrupted?: { atMs: number; phases: PlannedPhase[] };
}

export function emptyBucketRoute(): BucketRoute {
  return { scheduled: 0, sent: 0, dropped: 0, errors: 0, accepted: 0, throttled: 0, other: 0 };
}
