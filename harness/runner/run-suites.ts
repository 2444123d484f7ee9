// Runs the conformance suites in-process with vitest and returns what each test recorded.
// Functional suites run in parallel; rate-limit suites run afterwards, one file at a time, so they disturb nothing.
// A session can run several times (e.g. once per reference fault) without paying vitest's start-up again.
import { fileURLToPath } from 'node:url';
import { createVitest, type TestSpecification, type Vitest } from 'vitest/node';
import { redactorFor } from '../http/api-client.ts';
import type { TargetProfile } from '../target-profile.ts';
import { Collector } from './collector.ts';
import type { TestRecord } from './test-record.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERIAL_SUITES = /[\\/]suites[\\/]rate-limits[\\/]/;

export interface SuiteRun {
  records: TestRecord[];
  errors: string[];
}

export interface RunOptions {
  /** Only suite files whose path contains one of these strings. */
  files?: string[];
  onRecord?: (record: TestRecord) => void;
}

export class SuiteSession {
  private collector: Collector | undefined;

  private constructor(private readonly vitest: Vitest) {}

  static async open(initial: TargetProfile): Promise<SuiteSession> {
    let session: SuiteSession | undefined;
    // The reporter forwards to whichever collector the current run installed.
    const relay = {
      onTestCaseResult: (...args: Parameters<Collector['onTestCaseResult']>) => session?.collector?.onTestCaseResult(...args),
      onTestModuleEnd: (...args: Parameters<Collector['onTestModuleEnd']>) => session?.collector?.onTestModuleEnd(...args),
      onTestRunEnd: (...args: Parameters<Collector['onTestRunEnd']>) => session?.collector?.onTestRunEnd(...args),
    };
    const vitest = await createVitest(
      'test',
      {
        config: false,
        root: REPO_ROOT,
        run: true,
        watch: false,
        reporters: [relay],
        include: ['suites/**/*.test.ts'],
        provide: { target: initial },
        testTimeout: initial.timeouts.testMs,
        hookTimeout: initial.timeouts.testMs,
        passWithNoTests: true,
        // I/O-bound tests: more workers and concurrent tests than cores.
        maxWorkers: 4,
        maxConcurrency: 8,
      },
      {},
      {},
    );
    await vitest.standalone();
    session = new SuiteSession(vitest);
    return session;
  }

  async run(profile: TargetProfile, options: RunOptions = {}): Promise<SuiteRun> {
    const collector = new Collector(redactorFor(profile), options.onRecord);
    this.collector = collector;
    this.vitest.provide('target', profile);
    const all = (await this.vitest.globTestSpecifications()).filter((s) => matches(s, options.files));
    const functional = all.filter((s) => !SERIAL_SUITES.test(s.moduleId));
    const serial = all.filter((s) => SERIAL_SUITES.test(s.moduleId));
    if (functional.length > 0) await this.vitest.runTestSpecifications(functional, false);
    for (const spec of serial) await this.vitest.runTestSpecifications([spec], false);
    this.collector = undefined;
    return { records: collector.records, errors: collector.errors };
  }

  async close(): Promise<void> {
    await this.vitest.close();
  }
}

/** One run in a fresh session. */
export async function runSuites(profile: TargetProfile, options: RunOptions = {}): Promise<SuiteRun> {
  const session = await SuiteSession.open(profile);
  try {
    return await session.run(profile, options);
  } finally {
    await session.close();
  }
}

function matches(spec: TestSpecification, files: string[] | undefined): boolean {
  return !files || files.length === 0 || files.some((f) => spec.moduleId.includes(f));
}
