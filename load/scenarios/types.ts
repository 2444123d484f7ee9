// The shape of a load scenario: plain data, importable by the Node engine and by k6 scripts alike.
import type { RouteName } from './routes.ts';

/** A stream's arrival rate: a multiple of the documented trigger limit, or an absolute rate. */
export type Rate = { timesLimit: number } | { perSecond: number };

export interface Stream {
  route: RouteName;
  rate: Rate;
}

/** What the verdict checks over a phase; each maps to one rule (see load/verdict/). */
export type Expectation =
  | 'within-burst-bound' // RL-05: accepted tokens in any interval ≤ burst + rate·t
  | 'converges-to-limit' // RL-05: once the burst is spent, accepted rate = limit ±5%
  | 'no-429' // RL-05: under-limit traffic after refill is never throttled
  | 'remaining-falls-by-cost' // RL-03: Remaining after an accepted request ≤ burst − cost
  | 'throttled-well-formed' // RL-04: every 429 carries Retry-After and the rate-limit body
  | 'other-categories-unthrottled' // RL-06: configuration/global calls pass while trigger is exhausted
  | 'bulk-subscribers-2rps'; // RL-08: bulk subscribers stay within burst/100 + 2·t

export interface Phase {
  name: string;
  /** Duration in the full profile. */
  durationS: number;
  /** Duration in the short profile (tests): long enough to drain a 200/s, w=1 bucket. */
  shortDurationS: number;
  /** Constant-arrival-rate streams sent concurrently; none = an idle refill pause. */
  streams: Stream[];
  expect: Expectation[];
}

export interface ScenarioDefinition {
  name: string;
  description: string;
  /** Rule IDs of RULES.md this scenario produces evidence for. */
  rules: readonly string[];
  phases: Phase[];
}
