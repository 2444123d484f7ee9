import { defineConfig } from 'vitest/config';

// The harness's own tests; and, apart, the end-to-end tests on a real container engine (`npm run test:container`),
// so that `npm test` and CI never need one. (The conformance suites run through `conformance run`.)
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'harness',
          include: ['test/**/*.test.ts'],
          // why: the slow files wait on child processes, servers and real-time load, not the CPU; vitest's default
          // (cores - 1) would run them one after another on a 2-core machine
          maxWorkers: 4,
          // Worker threads that keep their module cache between files: a fresh process per file re-imports vitest,
          // the reference and the schema validators each time
          pool: 'threads',
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'container',
          include: ['test/**/*.e2e.ts'],
          testTimeout: 600_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
