// The vitest config of the mutation run only (stryker.config.mjs names it): the suites against a reference started
// inside the test worker, where Stryker switches the mutants. Never used by `npm test` or `conformance run`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['suites/**/*.test.ts'],
    setupFiles: [fileURLToPath(new URL('./reference-in-worker.ts', import.meta.url))],
    // The switch for the strict judging in fixtures/conformance.ts: violations and "not verified" fail the test.
    provide: { mutationRun: true },
    testTimeout: 60_000,
    hookTimeout: 70_000,
    // Stryker runs one worker with one test at a time; a fresh module graph per file re-evaluates module-level
    // code with a static mutant switched on (the setup file starts a fresh reference per file for the same reason).
    isolate: true,
    chaiConfig: { truncateThreshold: 0 },
  },
});
