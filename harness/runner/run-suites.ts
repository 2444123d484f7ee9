// Runs the conformance suites in-process with vitest and returns what each test recorded.
// Functional suites run in parallel; rate-limit suites run afterwards, one file at a time, so they disturb nothing.
// A session can run several times (e.g. once per reference fault) without paying vitest's start-up again.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createVitest, type TestSpecification, type Vitest } from 'vitest/node';
import { redactorFor } from '../http/api-client.ts';
import { cleanAllureResults, ConformanceAllureReporter } from '../report/allure-reporter.ts';
import type { TargetProfile } from '../target-profile.ts';
import { Collector } from './collector.ts';
import { selectSuites, type SelectionScope } from './rule-selection.ts';
import type { TestRecord } from './test-record.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERIAL_SUITES = /[\\/]suites[\\/]rate-limits[\\/]/;

export interface SuiteRun {
  records: TestRecord[];
  errors: string[];
  /** Wall-clock time of the parallel functional phase and of the serial rate-limit phase. */
  phases?: { functionalMs: number; rateLimitMs: number };
}

export interface RunOptions {
  /** Only suite files whose path contains one of these strings. */
  files?: string[];
  /** How much traffic a selected rule that is checked on every exchange gets (default complete: the full run's). */
  scope?: SelectionScope;
  /** The whole run is cancelled after this long; what finished is kept (timeouts.runMs). */
  deadlineMs?: number;
  /** Run the serial rate-limit suites after the functional ones (default true). */
  rateLimitPhase?: boolean;
  onRecord?: (record: TestRecord) => void;
  /** Write Allure results here (emptied first); without it the session writes none. */
  allureResultsDir?: string;
}

export class SuiteSession {
  private collector: Collector | undefined;

  private constructor(
    private readonly vitest: Vitest,
    private readonly allure: ConformanceAllureReporter | undefined,
  ) {}

  static async open(initial: TargetProfile, options: { allureResultsDir?: string } = {}): Promise<SuiteSession> {
    let session: SuiteSession | undefined;
    if (options.allureResultsDir) cleanAllureResults(options.allureResultsDir);
    const allure = options.allureResultsDir ? new ConformanceAllureReporter(options.allureResultsDir) : undefined;
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
        reporters: allure ? [relay, allure] : [relay],
        ...(allure ? { setupFiles: [fileURLToPath(import.meta.resolve('allure-vitest/setup'))] } : {}),
        include: ['suites/**/*.test.ts'],
        provide: { target: initial, allure: allure !== undefined },
        testTimeout: initial.timeouts.testMs,
        hookTimeout: initial.timeouts.testMs,
        passWithNoTests: true,
        // I/O-bound tests: more workers and concurrent tests than cores. Suite files share no module state
        // that matters, so workers keep their module cache between files (the schema validators load once).
        pool: 'threads',
        isolate: false,
        maxWorkers: 4,
        maxConcurrency: 8,
        // Whole values in assertion messages: a key cut short by chai's truncation would escape redaction.
        chaiConfig: { truncateThreshold: 0 },
      },
      {},
      {},
    );
    await vitest.standalone();
    session = new SuiteSession(vitest, allure);
    return session;
  }

  async run(profile: TargetProfile, options: RunOptions = {}): Promise<SuiteRun> {
    const collector = new Collector(redactorFor(profile), options.onRecord);
    this.collector = collector;
    this.allure?.useRedactor(redactorFor(profile));
    const specs = (await this.vitest.globTestSpecifications()).filter((s) => matches(s, options.files));
    const selection = selectSuites(
      profile.rules,
      specs.map((spec) => ({ spec, source: profile.rules.length > 0 ? readFileSync(spec.moduleId, 'utf8') : '', serial: SERIAL_SUITES.test(spec.moduleId) })),
      options.scope ?? 'complete',
    );
    this.vitest.provide('target', { ...profile, runForTraffic: selection.forTraffic });
    const all = selection.files.map((f) => f.spec);
    const functional = all.filter((s) => !SERIAL_SUITES.test(s.moduleId));
    const serial = options.rateLimitPhase === false ? [] : all.filter((s) => SERIAL_SUITES.test(s.moduleId));
    let expired = false;
    const deadline = options.deadlineMs
      ? setTimeout(() => {
          expired = true;
          void this.vitest.cancelCurrentRun('keyboard-input');
        }, options.deadlineMs)
      : undefined;
    const phases = { functionalMs: 0, rateLimitMs: 0 };
    try {
      let started = performance.now();
      if (functional.length > 0) await this.vitest.runTestSpecifications(functional, false);
      phases.functionalMs = Math.round(performance.now() - started);
      started = performance.now();
      for (const spec of serial) if (!expired) await this.vitest.runTestSpecifications([spec], false);
      phases.rateLimitMs = Math.round(performance.now() - started);
    } finally {
      clearTimeout(deadline);
      this.collector = undefined;
    }
    if (expired) collector.errors.push(`the run was stopped after ${options.deadlineMs} ms (timeouts.runMs); tests that had not finished have no verdict`);
    return { records: collector.records, errors: collector.errors, phases };
  }

  async close(): Promise<void> {
    await this.vitest.close();
  }
}

function matches(spec: TestSpecification, files: string[] | undefined): boolean {
  return !files || files.length === 0 || files.some((f) => spec.moduleId.includes(f));
}
