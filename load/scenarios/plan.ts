// Turns a scenario definition into concrete streams: absolute rates, start times, request counts.
import { ROUTES, type RouteName } from './routes.ts';
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

export function planScenario(def: ScenarioDefinition, profile: ProfileName, limitRps: number, durationScale = 1): ScenarioPlan {
  let t = 0;
  const phases: PlannedPhase[] = def.phases.map((p) => {
    const durationMs = Math.round((profile === 'short' ? p.shortDurationS : p.durationS) * durationScale * 1000);
    const streams = p.streams.map((s) => {
      const rps = absoluteRate(s.rate, limitRps);
      const route = ROUTES[s.route];
      return { route: s.route, rps, startMs: t, durationMs, count: Math.floor((rps * durationMs) / 1000), cost: route.cost, category: route.category };
    });
    const phase = { name: p.name, startMs: t, durationMs, expect: [...p.expect], streams };
    t += durationMs;
    return phase;
  });
  const requestCount = phases.reduce((n, p) => n + p.streams.reduce((m, s) => m + s.count, 0), 0);
  return { scenario: def.name, profile, limitRps, durationMs: t, requestCount, phases };
}

function absoluteRate(rate: Rate, limitRps: number): number {
  return 'timesLimit' in rate ? rate.timesLimit * limitRps : rate.perSecond;
}
