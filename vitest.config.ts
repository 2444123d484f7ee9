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
