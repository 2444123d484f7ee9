// RL-03/RL-04: RateLimit-* stay consistent while the bucket drains and throttles.
import type { ScenarioDefinition } from './types.ts';

export const headersUnderLoad: ScenarioDefinition = {
  name: 'headers-under-load',
  description: 'trigger at 1.2× the limit: Remaining tracks cost, every 429 carries Retry-After and the rate-limit body',
  rules: ['RL-03', 'RL-04', 'RL-05'],
  phases: [
    {
      name: 'over-limit',
      // why: at 1.2× the burst drains in 5.5·w s; the rest is throttled traffic whose headers are checked
      durationS: 40,
      shortDurationS: 8,
      streams: [{ route: 'trigger', rate: { timesLimit: 1.2 } }],
      expect: ['within-burst-bound', 'remaining-falls-by-cost', 'throttled-well-formed'],
    },
  ],
};
