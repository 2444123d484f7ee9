// The scenario registry and the two profiles (full: the CLI; short: seconds, for tests and CI).
import { bulkCost } from './bulk-cost.ts';
import { categoryIsolation } from './category-isolation.ts';
import { headersUnderLoad } from './headers-under-load.ts';
import { triggerLimit } from './trigger-limit.ts';
import { triggerUnderLimit } from './trigger-under-limit.ts';
import type { ScenarioDefinition } from './types.ts';

export const SCENARIOS: readonly ScenarioDefinition[] = [triggerLimit, triggerUnderLimit, headersUnderLoad, bulkCost, categoryIsolation];
export const SCENARIO_NAMES = SCENARIOS.map((s) => s.name);

export function scenarioByName(name: string): ScenarioDefinition | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

export type ProfileName = 'short' | 'full';

export interface Profile {
  name: ProfileName;
  /** Limits the embedded reference is started with; the short profile lowers them so the burst drains in seconds. */
  embedded: { triggerRps?: number; windowSeconds?: number };
  /** Idle time between scenarios so the buckets refill (at least burst/rps of the previous policy). */
  gapS: number;
}

export const PROFILES: Record<ProfileName, Profile> = {
  full: { name: 'full', embedded: {}, gapS: 6 },
  short: { name: 'short', embedded: { triggerRps: 200, windowSeconds: 1 }, gapS: 1.5 },
};
