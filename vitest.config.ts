import { defineConfig } from 'vitest/config';

// Two projects: the harness's own tests, and the conformance suites (normally run through `conformance run`).
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
    ],
  },
});
