// The vitest config of the mutation run's long-checks pass (mutation/stryker.long-checks.config.mjs): the mutation
// run's, with the checks that wait on the clock switched on.
import { mergeConfig } from 'vitest/config';
import mutationConfig from './vitest.config.ts';

export default mergeConfig(mutationConfig, { test: { provide: { longChecks: true } } });
