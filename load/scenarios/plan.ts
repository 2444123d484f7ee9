// Turns a scenario definition into concrete streams: absolute rates, start times, request counts.
import type { DeclaredLimit, DeclaredLimits } from './declared-limits.ts';
import { ROUTES, type Category, type RouteName } from './routes.ts';
import type { ProfileName } from './index.ts';
import type { Expectation, Rate, ScenarioDefinition } from './types.ts';

export interface PlannedStream {
  route: RouteName;
  rps: number;
  startMs: number;
  durationMs: number;
  /** Request i is scheduled at startMs + i·1000/rps. */
  count: number;
  cost: number;
  category: string;
}

export interface PlannedPhase {
  name: string;
  startMs: number;
  durationMs: number;
  expect: Expectation[];
  streams: PlannedStream[];
}

export interface ScenarioPlan {
  scenario: string;
  profile: ProfileName;
  /** The documented trigger limit the rates are multiples of (and the verdict compares with). */
  limitRps: number;
  durationMs: number;
  requestCount: number;
  phases: PlannedPhase[];
}

/** Throttled traffic a phase keeps after its bucket is spent, so convergence has a window to measure (RL-05). */
export const STEADY_AFTER_BURST_S = 3;
/** The drain takes longer when the engine sends a little less than planned (≤ 2% may be lost) or the target lags. */
export const DRAIN_MARGIN = 1.2;
/** However large a declared burst, no phase is lengthened beyond this. */
export const MAX_FITTED_PHASE_S = 120;

/**
 * Concrete streams of a scenario. With the target's declared limits, a phase that offers a category more than its
 * refill rate lasts until the burst is spent (with DRAIN_MARGIN) plus STEADY_AFTER_BURST_S, and an idle phase until
 * the buckets are full.
 */
export function planScenario(def: ScenarioDefinition, profile: ProfileName, limitRps: number, durationScale = 1, declared: DeclaredLimits = {}): ScenarioPlan {
  let t = 0;
  const phases: PlannedPhase[] = def.phases.map((p) => {
    const rates = p.streams.map((s) => ({ route: s.route, rps: absoluteRate(s.rate, limitRps) }));
    const scaledMs = Math.round((profile === 'short' ? p.shortDurationS : p.durationS) * durationScale * 1000);
    const durationMs = Math.max(scaledMs, fittedMs(rates, limitRps, declared));
    const streams = rates.map(({ route: name, rps }) => {
      const route = ROUTES[name];
      return { route: name, rps, startMs: t, durationMs, count: Math.floor((rps * durationMs) / 1000), cost: route.cost, category: route.category };
    });
    const phase = { name: p.name, startMs: t, durationMs, expect: [...p.expect], streams };
    t += durationMs;
    return phase;
  });
  const requestCount = phases.reduce((n, p) => n + p.streams.reduce((m, s) => m + s.count, 0), 0);
  return { scenario: def.name, profile, limitRps, durationMs: t, requestCount, phases };
}

/** How long a phase must last for the declared buckets: drained then throttled a while, or refilled when idle. */
function fittedMs(rates: { route: RouteName; rps: number }[], limitRps: number, declared: DeclaredLimits): number {
  let needS = 0;
  for (const [category, limit] of Object.entries(declared) as [Category, DeclaredLimit][]) {
    if (!(limit.ratePerS > 0)) continue;
    if (rates.length === 0) {
      needS = Math.max(needS, limit.burst / limit.ratePerS);
      continue;
    }
    const offered = rates.filter((r) => ROUTES[r.route].category === category).reduce((n, r) => n + r.rps * ROUTES[r.route].cost, 0);
    // why: RL-05 judges the trigger bucket at the documented rate; a bucket refilling faster drains later
    const refill = category === 'trigger' ? Math.max(limitRps, limit.ratePerS) : limit.ratePerS;
    if (offered > refill) needS = Math.max(needS, (DRAIN_MARGIN * limit.burst) / (offered - refill) + STEADY_AFTER_BURST_S);
  }
  return Math.ceil(Math.min(needS, MAX_FITTED_PHASE_S) * 10) * 100;
}

function absoluteRate(rate: Rate, limitRps: number): number {
  return 'timesLimit' in rate ? rate.timesLimit * limitRps : rate.perSecond;
}
