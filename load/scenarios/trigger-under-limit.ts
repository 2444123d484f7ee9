// RL-05: a sustained rate at 0.8× the limit never sees a 429.
import type { ScenarioDefinition } from './types.ts';

export const triggerUnderLimit: ScenarioDefinition = {
  name: 'trigger-under-limit',
  description: 'trigger at 0.8× the limit: no request is throttled',
  rules: ['RL-05', 'RL-03'],
  phases: [
    {
      name: 'under-limit',
      // why: longer than the burst would last at this rate if the bucket refilled too slowly (2/3 → 5.5·w s)
      durationS: 30,
      shortDurationS: 8,
      streams: [{ route: 'trigger', rate: { timesLimit: 0.8 } }],
      expect: ['within-burst-bound', 'no-429', 'remaining-falls-by-cost'],
    },
  ],
};
