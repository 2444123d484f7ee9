// Setup file of the mutation run: starts the embedded reference inside the vitest worker, once per test file, so
// that Stryker's mutant switch (a global of this worker) reaches the code under test; hands it to the suites as the
// target they inject. Also charges each test's cleanup requests to that test in Stryker's per-test coverage.
import { afterAll, beforeEach, inject } from 'vitest';
import { DEFAULT_SETTINGS } from '../config/settings.ts';
import { closeTransport } from '../harness/http/transport.ts';
import { startEmbeddedTarget } from '../harness/runner/embedded-target.ts';
import { toProfile } from '../harness/runner/profile.ts';
import type { TargetProfile } from '../harness/target-profile.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    globalNamespace?: string;
  }
}

const embedded = await startEmbeddedTarget([]);
provideTarget(toProfile(DEFAULT_SETTINGS, embedded));
afterAll(async () => {
  await closeTransport();
  await embedded.reference.close();
});

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
const stryker = (globalThis as Record<string, { currentTestId?: string } | undefined>)[inject('globalNamespace') ?? '__stryker__'];
beforeEach(({ onTestFinished }) => {
  const testId = stryker?.currentTestId;
  if (!stryker || testId === undefined) return;
  onTestFinished(() => void (stryker.currentTestId = undefined));
  return () => void (stryker.currentTestId = testId);
});
