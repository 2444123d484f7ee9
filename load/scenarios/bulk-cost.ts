// RL-03/RL-08: a bulk request costs 100 tokens; bulk subscribers are held to 2 requests per second.
import type { ScenarioDefinition } from './types.ts';

export const bulkCost: ScenarioDefinition = {
  name: 'bulk-cost',
  description: 'spaced bulk triggers (Remaining ≤ burst − 100 after each) and bulk subscribers at 4/s (2/s accepted)',
  rules: ['RL-03', 'RL-08', 'RL-04'],
  phases: [
    {
      name: 'bulk',
      // why: one bulk per 200 tokens of refill keeps the trigger bucket full before each bulk
      durationS: 20,
      shortDurationS: 4,
      streams: [
        { route: 'trigger-bulk', rate: { timesLimit: 1 / 200 } },
        // why: 2× the 2/s limit drains the configuration burst, then 2/s must be the accepted rate
        { route: 'subscribers-bulk', rate: { perSecond: 4 } },
      ],
      expect: ['remaining-falls-by-cost', 'throttled-well-formed', 'bulk-subscribers-2rps'],
    },
  ],
};
