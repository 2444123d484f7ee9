// The vitest config of the mutation run only (stryker.config.mjs names it): the suites against a reference started
// inside the test worker, where Stryker switches the mutants. Never used by `npm test` or `conformance run`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import type { PoolOptions } from 'vitest/node';
import { keepAlivePool as makeKeepAlivePool } from '../harness/runner/keep-alive-pool.ts';

declare module 'vitest' {
  // What Stryker's vitest runner provides before each run (@stryker-mutator/vitest-runner, vitest-test-runner.js).
  export interface ProvidedContext {
    mode?: 'dry-run' | 'mutant';
    mutantActivation?: 'static' | 'runtime';
  }
}

// Stryker's vitest runner starts a vitest run per mutant. A runtime mutant is switched through a global the setup file
// sets before each file, so its run takes the thread of the run before, modules loaded; what must start fresh still
// does: the initial test run (it measures coverage) and every static mutant (activated before the modules load).
// Each suite file still starts its own reference (reference-in-worker.ts), so no state of one run's reference reaches
// the next.
const keepAlivePool = makeKeepAlivePool({
  name: 'mutation-keep-alive-threads',
  reusable: (options: PoolOptions) => {
    const { mode, mutantActivation } = options.project.getProvidedContext();
    return mode === 'mutant' && mutantActivation === 'runtime';
  },
  recycleAfterRuns: 100,
});

export default defineConfig({
  plugins: [
    {
      name: 'mutation-keep-alive-pool',
      // Stryker's runner asks for `pool: 'threads'` over any config; the project's pool is set after that, here.
      configureVitest({ project }) {
        project.config.pool = keepAlivePool.name;
        project.config.poolRunner = keepAlivePool;
      },
    },
  ],
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['suites/**/*.test.ts'],
    setupFiles: [fileURLToPath(new URL('./reference-in-worker.ts', import.meta.url))],
    // The switch for the strict judging in fixtures/conformance.ts: violations and "not verified" fail the test.
    provide: { mutationRun: true },
    testTimeout: 60_000,
    hookTimeout: 70_000,
    // Stryker runs one worker with one test at a time. Not isolated: a run loads the module graph once for all its
    // files (a fresh graph per file cost about a second each, most of a mutant's time), and the setup file still
    // starts a fresh reference per file. A static mutant's run gets a new thread, whose modules load with the mutant
    // on; a runtime mutant's gets the thread of the run before, modules loaded (harness/runner/keep-alive-pool.ts).
    isolate: false,
    // A mutant is killed by a test that fails on every try: a timing-bound check on a loaded machine (a bucket that
    // refilled before it was read, "not verified" — which fails a mutation run) must not count as a kill.
    retry: 2,
    chaiConfig: { truncateThreshold: 0 },
  },
});
