// RL-05: offered 1.5× the limit until the burst is spent, an idle refill, then 0.8× with no 429 allowed.
import type { ScenarioDefinition } from './types.ts';

export const triggerLimit: ScenarioDefinition = {
  name: 'trigger-limit',
  description: 'trigger at 1.5× the limit long enough to drain the burst, then below the limit after a refill',
  rules: ['RL-05', 'RL-03', 'RL-04'],
  phases: [
    {
      name: 'over-limit',
      // why: at 1.5× the burst (1.1·w·rps) drains in 2.2·w s; 25 s leaves ≥ 14 s of steady state at w=5
      durationS: 25,
      shortDurationS: 6,
      streams: [{ route: 'trigger', rate: { timesLimit: 1.5 } }],
      expect: ['within-burst-bound', 'converges-to-limit', 'remaining-falls-by-cost', 'throttled-well-formed'],
    },
    // why: a full refill takes burst/rps = 1.1·w s
    { name: 'refill', durationS: 6, shortDurationS: 1.5, streams: [], expect: [] },
    {
      name: 'under-limit',
      durationS: 10,
      shortDurationS: 3,
      streams: [{ route: 'trigger', rate: { timesLimit: 0.8 } }],
      expect: ['within-burst-bound', 'no-429', 'remaining-falls-by-cost'],
    },
  ],
};
