// Runs the conformance suites in-process with vitest and returns what each test recorded.
// Functional suites run in parallel; rate-limit suites run afterwards, one file at a time, so they disturb nothing.
// A session can run several times (e.g. once per reference fault) without paying vitest's start-up again.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createVitest, type TestSpecification, type Vitest } from 'vitest/node';
import { redactorFor } from '../../report/redactor.ts';
import { REPO_ROOT } from '../../report/suite-info.ts';
import { cleanAllureResults, ConformanceAllureReporter } from './allure-reporter.ts';
import type { TargetProfile } from '../target-profile.ts';
import { Collector } from './collector.ts';
import type { TestRecord } from '../../report/test-record.ts';
import { selectSuites, type SelectionScope } from './rule-selection.ts';
import { RunStop, STOP_GRACE_MS } from './run-stop.ts';

const SERIAL_SUITES = /[\\/]suites[\\/]rate-limits[\\/]/;

export interface SuiteRun {
  records: TestRecord[];
  errors: string[];
  /** Wall-clock time of the parallel functional phase and of the serial rate-limit phase. */
  phases?: { functionalMs: number; rateLimitMs: number };
  /** Why the run stopped early (deadline or interruption); tests that had not started say the same. */
  stopped?: string;
  /** Tests still running when the run was abandoned after the grace period: what they created may remain. */
  abandoned?: string[];
}

export interface RunOptions {
  /** Only suite files whose path contains one of these strings. */
  files?: string[];
  /** How much traffic a selected rule that is checked on every exchange gets (default complete: the full run's). */
  scope?: SelectionScope;
  /** The whole run is cancelled after this long; what finished is kept (timeouts.runMs). */
  deadlineMs?: number;
  /** Aborted on the first Ctrl-C: no test starts any more, running ones get a bounded time to finish. */
  interrupt?: AbortSignal;
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
      onTestCaseReady: (...args: Parameters<Collector['onTestCaseReady']>) => session?.collector?.onTestCaseReady(...args),
      onTestCaseResult: (...args: Parameters<Collector['onTestCaseResult']>) => session?.collector?.onTestCaseResult(...args),
      onTestModuleEnd: (...args: Parameters<Collector['onTestModuleEnd']>) => session?.collector?.onTestModuleEnd(...args),
      onTestRunEnd: (...args: Parameters<Collector['onTestRunEnd']>) => session?.collector?.onTestRunEnd(...args),
    };
    const before = signalListeners();
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
    dropSignalListenersSince(before);
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
    const stop = new RunStop(profile.runPrefix, () => this.vitest.cancelCurrentRun('keyboard-input'), Math.min(profile.timeouts.testMs, STOP_GRACE_MS));
    this.vitest.provide('target', { ...profile, runForTraffic: selection.forTraffic, stopFile: stop.file });
    const all = selection.files.map((f) => f.spec);
    const functional = all.filter((s) => !SERIAL_SUITES.test(s.moduleId));
    const serial = options.rateLimitPhase === false ? [] : all.filter((s) => SERIAL_SUITES.test(s.moduleId));
    let expired = false;
    const deadline = options.deadlineMs
      ? setTimeout(() => {
          expired = true;
          stop.stop(`the run was stopped after ${options.deadlineMs} ms (timeouts.runMs) before this test started`);
        }, options.deadlineMs)
      : undefined;
    const interrupt = () => stop.stop(`interrupted (${String(options.interrupt?.reason ?? 'SIGINT')}) before this test started`);
    if (options.interrupt?.aborted) interrupt();
    options.interrupt?.addEventListener('abort', interrupt);
    // A run abandoned after the grace period is not awaited any further: the runner goes on to sweep and report.
    const run = (specs: TestSpecification[]) => Promise.race([this.vitest.runTestSpecifications(specs, false), stop.abandoned]);
    const phases = { functionalMs: 0, rateLimitMs: 0 };
    try {
      let started = performance.now();
      if (functional.length > 0 && stop.reason === undefined) await run(functional);
      phases.functionalMs = Math.round(performance.now() - started);
      started = performance.now();
      for (const spec of serial) if (stop.reason === undefined) await run([spec]);
      phases.rateLimitMs = Math.round(performance.now() - started);
    } finally {
      clearTimeout(deadline);
      options.interrupt?.removeEventListener('abort', interrupt);
      stop.dispose();
      this.collector = undefined;
    }
    if (expired) collector.errors.push(`the run was stopped after ${options.deadlineMs} ms (timeouts.runMs); tests that had not finished have no verdict`);
    return {
      records: collector.records,
      errors: collector.errors,
      phases,
      ...(stop.reason !== undefined ? { stopped: stop.reason } : {}),
      ...(stop.abandonedRun ? { abandoned: collector.running } : {}),
    };
  }

  /** Tests of the current run that started and have not finished. */
  get running(): string[] {
    return this.collector?.running ?? [];
  }

  async close(): Promise<void> {
    await this.vitest.close();
  }
}

function matches(spec: TestSpecification, files: string[] | undefined): boolean {
  return !files || files.length === 0 || files.some((f) => spec.moduleId.includes(f));
}

/** Vitest's logger ends the process on SIGINT/SIGTERM; a conformance run handles them itself (finish, sweep, report). */
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

type Listeners = NodeJS.SignalsListener[][];

function signalListeners(): Listeners {
  return SIGNALS.map((s) => process.listeners(s));
}

function dropSignalListenersSince(before: Listeners): void {
  SIGNALS.forEach((s, i) => process.listeners(s).filter((l) => !before[i]!.includes(l)).forEach((l) => process.off(s, l)));
}
