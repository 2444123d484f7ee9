import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

// The harness files whose time is waiting (real-time load, CLI runs against servers), longest first. Vitest starts the
// files it remembers as longest first, but a fresh clone has no memory (node_modules/.vite): it then orders by file
// size and started the 50-s real-time load test near the end, where nothing else overlaps it (harness 137 s vs 108 s).
const LONG_FIRST = [
  'test/cli/ci-examples.test.ts',
  'test/load/deployed-limits.test.ts',
  'test/safety/interrupt.test.ts',
  'test/hostile/hostile-targets.test.ts',
  'test/hostile/real-proxies.test.ts',
  'test/hostile/slow-target.test.ts',
  'test/safety/no-drain.test.ts',
  'test/runner/rule-selection.test.ts',
  'test/reference/reference-command.test.ts',
  'test/load/reference-short-profile.test.ts',
  'test/report/root-causes.test.ts',
  'test/safety/staging-safety.test.ts',
  'test/fuzz/fuzz-run.test.ts',
  'test/harness/cli-startup.test.ts',
  'test/report/attestation.test.ts',
];

class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONG_FIRST.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return i === -1 ? LONG_FIRST.length : i;
    };
    // a stable sort: the rest keep vitest's own order
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// The harness's own tests; and, apart, the end-to-end tests on a real container engine (`npm run test:container`),
// so that `npm test` and CI never need one. (The conformance suites run through `conformance run`.)
export default defineConfig({
  test: {
    sequence: { sequencer: LongFirstSequencer },
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
          // why: only a backstop against a harness that hangs itself. A busy machine makes the end-to-end tests take
          // minutes, so none is bounded by the clock: a CLI run is alive while it prints (run-cli.ts's silence bound)
          testTimeout: 20 * 60_000,
          hookTimeout: 20 * 60_000,
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
