// Setup file of the mutation run: starts the embedded reference inside the vitest worker, once per test file, so
// that Stryker's mutant switch (a global of this worker) reaches the code under test; hands it to the suites as the
// target they inject. Also charges each test's cleanup requests to that test in Stryker's per-test coverage.
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { DEFAULT_SETTINGS } from '../config/settings.ts';
import { closeTransport } from '../harness/http/transport.ts';
import { toProfile } from '../harness/runner/profile.ts';
import type { TargetProfile } from '../harness/target-profile.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    globalNamespace?: string;
    /** The long checks' pass of the mutation run (mutation/vitest.long-checks.config.ts). */
    longChecks?: boolean;
  }
}

const settings = { ...DEFAULT_SETTINGS, run: { ...DEFAULT_SETTINGS.run, longChecks: inject('longChecks') === true } };

// A mutant that keeps the reference from loading or starting must fail the file's tests: a setup file that throws
// leaves vitest with no tests for the file, which Stryker's runner counts as "survived". So the error fails each test
// (the import is dynamic so that an error in the reference's module code is caught too).
const embedded = await import('../harness/runner/embedded-target.ts')
  .then(({ startEmbeddedTarget }) => startEmbeddedTarget([]))
  .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
if (embedded instanceof Error) {
  provideTarget(toProfile({ ...settings, target: { ...settings.target, baseUrl: 'http://127.0.0.1:9', apiKey: 'none' } }, undefined));
  // beforeEach, not beforeAll: a failed beforeAll skips the tests, and Stryker counts skipped tests as passing.
  beforeEach(() => {
    throw new Error(`mutation run: the reference did not start: ${embedded.message}`);
  });
} else {
  provideTarget(toProfile(settings, embedded));
  afterAll(async () => {
    await closeTransport();
    await embedded.reference.close();
  });
}

/**
 * `inject('target')` reads the worker's provided context; the reference's address and keys exist only now, in the
 * worker, so the profile is written there (vitest 4.1 keeps that object on `globalThis.__vitest_worker__`).
 */
function provideTarget(profile: TargetProfile): void {
  const worker = (globalThis as { __vitest_worker__?: { providedContext?: Record<string, unknown> } }).__vitest_worker__;
  if (!worker?.providedContext) throw new Error('mutation run: no vitest worker state to provide the target to (vitest changed its internals?)');
  worker.providedContext.target = profile;
  if (inject('target') !== profile) throw new Error('mutation run: inject("target") does not see the provided target');
}

// Stryker's setup (first in setupFiles) sets the test id in beforeEach and clears it in afterEach, before vitest tears
// the fixtures down; a function returned from beforeEach runs between the two, so the cleanup fixture's DELETEs are
// charged to the test that created the resources instead of to "static" (which would run every test per mutant).
const stryker = (globalThis as Record<string, StrykerNamespace | undefined>)[inject('globalNamespace') ?? '__stryker__'];
const testsOfThisFile = new Set<string>();
beforeEach(({ onTestFinished }) => {
  const testId = stryker?.currentTestId;
  if (!stryker || testId === undefined) return;
  testsOfThisFile.add(testId);
  onTestFinished(() => void (stryker.currentTestId = undefined));
  return () => void (stryker.currentTestId = testId);
});

// What the file's own hooks (beforeAll/afterAll) and everything else between its first and its last test reach while
// no test id is set would count as "static" too: charged instead to each test of this file, since those tests are
// the ones a mutant there can fail. The window opens in a beforeAll — after Stryker's, which switches the mutant on
// in a run, so a charged mutant is live where it was reached — and closes in an afterAll that runs after the file's
// own (vitest runs afterAll hooks in reverse). The reference's start and module code stay static: every test needs them.
let staticBeforeHooks: Record<string, number> = {};
beforeAll(() => void (staticBeforeHooks = { ...coverage()?.static }));
afterAll(() => {
  const cov = coverage();
  if (!cov || testsOfThisFile.size === 0) return;
  for (const [mutantId, hits] of Object.entries(cov.static)) {
    const inHooks = hits - (staticBeforeHooks[mutantId] ?? 0);
    if (inHooks <= 0) continue;
    for (const testId of testsOfThisFile) {
      const perTest = (cov.perTest[testId] ??= {});
      perTest[mutantId] = (perTest[mutantId] ?? 0) + inHooks;
    }
    if (staticBeforeHooks[mutantId]) cov.static[mutantId] = staticBeforeHooks[mutantId];
    else delete cov.static[mutantId];
  }
});

/** Stryker's state in this worker (see @stryker-mutator/vitest-runner's stryker-setup.js and the instrumenter's helpers). */
interface StrykerNamespace {
  currentTestId?: string;
  mutantCoverage?: { static: Record<string, number>; perTest: Record<string, Record<string, number>> };
}

/** The coverage counters the instrumented code fills (the same object, which Stryker reads after the file). */
function coverage(): StrykerNamespace['mutantCoverage'] {
  return stryker?.mutantCoverage;
}
