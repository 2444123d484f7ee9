// RL-06: with the trigger bucket exhausted, configuration and global calls still pass.
import type { ScenarioDefinition } from './types.ts';

export const categoryIsolation: ScenarioDefinition = {
  name: 'category-isolation',
  description: 'trigger at 1.5× the limit while configuration and global calls run at 5/s each',
  rules: ['RL-06', 'RL-05', 'RL-04'],
  phases: [
    {
      name: 'trigger-exhausted',
      durationS: 20,
      shortDurationS: 5,
      streams: [
        { route: 'trigger', rate: { timesLimit: 1.5 } },
        { route: 'environment-variables', rate: { perSecond: 5 } },
        { route: 'environments', rate: { perSecond: 5 } },
      ],
      expect: ['within-burst-bound', 'other-categories-unthrottled', 'throttled-well-formed'],
    },
  ],
};
