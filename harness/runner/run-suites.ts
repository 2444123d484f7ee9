// Runs the conformance suites in-process with vitest and returns what each test recorded.
// One vitest run starts the files in plan order: the rate-limit suites that need full buckets, the functional suites,
// the rate-limit suites that exhaust a bucket (rate-limit-phases.ts); the bucket plan starts each test once no
// earlier test it conflicts with is unfinished, so the rate-limit suites never run beside the functional ones.
// A session can run several times (e.g. once per reference fault) without paying vitest's start-up again.
import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, createVitest, type TestSpecification, type Vitest } from 'vitest/node';
import { Redactor, secretsOf } from '../../report/redactor.ts';
import { REPO_ROOT } from '../../report/suite-info.ts';
import { cleanAllureResults, ConformanceAllureReporter } from './allure-reporter.ts';
import type { TargetProfile } from '../target-profile.ts';
import { BucketPlan } from './bucket-plan.ts';
import { Collector } from './collector.ts';
import { keepAlivePool } from './keep-alive-pool.ts';
import { isRateLimitSuite, rateLimitPhases } from './rate-limit-phases.ts';
import type { TestRecord } from '../../report/test-record.ts';
import { selectSuites, type SelectionScope } from './rule-selection.ts';
import { RunStop, STOP_GRACE_MS } from './run-stop.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Per suite file (absolute path), a target other than `target` (the fault proof runs several at once). */
    targetsByFile: Record<string, TargetProfile>;
  }
}

export interface SuiteRun {
  records: TestRecord[];
  errors: string[];
  /** Transport faults of requests whose rejection no test awaited in time (collector.ts): the network's, no verdict. */
  strayTransportFaults?: string[];
  /**
   * Wall-clock time until the first test started (workers importing the suites), of the functional suites, and of
   * the rate-limit suites before and after them together.
   */
  phases?: { startupMs: number; functionalMs: number; rateLimitMs: number };
  /** When the buckets the rate-limit suites exhausted are full again (epoch ms), as the target's headers said. */
  bucketsFullAt?: number;
  /** Why the run stopped early (deadline or interruption); tests that had not started say the same. */
  stopped?: string;
  /** Set when the run reached its time bound (timeouts.runMs): it says so, naming the bound. */
  reachedBound?: string;
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
  /** Run the rate-limit suites too (default true). */
  rateLimitPhase?: boolean;
  onRecord?: (record: TestRecord) => void;
  /** Write Allure results here (emptied first); without it the session writes none. */
  allureResultsDir?: string;
}

/** Suite files run against one target; parts of one run go to different targets at the same time. */
export interface RunPart extends Pick<RunOptions, 'files' | 'scope' | 'rateLimitPhase'> {
  profile: TargetProfile;
}

export class SuiteSession {
  private collector: Collector | undefined;

  private constructor(
    private readonly vitest: Vitest,
    private readonly allure: ConformanceAllureReporter | undefined,
    private readonly plan: BucketPlan,
    private readonly keepsThreads: boolean,
  ) {}

  /** `keepThreads`: for a session that runs many times (the fault proof's waves), each run takes the test threads the
   * runs before left, modules loaded (keep-alive-pool.ts); a single run gains nothing from it. */
  static async open(initial: TargetProfile, options: { allureResultsDir?: string; workers?: number; keepThreads?: boolean } = {}): Promise<SuiteSession> {
    let session: SuiteSession | undefined;
    if (options.allureResultsDir) cleanAllureResults(options.allureResultsDir);
    const allure = options.allureResultsDir ? new ConformanceAllureReporter(options.allureResultsDir) : undefined;
    const plan = new BucketPlan();
    // The reporter forwards to the bucket plan and to whichever collector the current run installed.
    const relay = {
      onTestModuleCollected: (...args: Parameters<BucketPlan['onTestModuleCollected']>) => plan.onTestModuleCollected(...args),
      onTestCaseReady: (...args: Parameters<Collector['onTestCaseReady']>) => session?.collector?.onTestCaseReady(...args),
      onTestCaseResult: (...args: Parameters<Collector['onTestCaseResult']>) => {
        plan.onTestCaseResult(...args);
        session?.collector?.onTestCaseResult(...args);
      },
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
        sequence: { sequencer: GivenOrder },
        provide: { target: initial, targetsByFile: {}, allure: allure !== undefined, bucketPlan: plan.channelName },
        testTimeout: initial.timeouts.testMs,
        hookTimeout: initial.timeouts.testMs,
        passWithNoTests: true,
        // I/O-bound tests: more workers and concurrent tests than cores. Suite files share no module state
        // that matters, so workers keep their module cache between files (the schema validators load once).
        pool: options.keepThreads ? KEPT_THREADS : 'threads',
        isolate: false,
        maxWorkers: options.workers ?? 4,
        maxConcurrency: 8,
        // Whole values in assertion messages: a key cut short by chai's truncation would escape redaction.
        chaiConfig: { truncateThreshold: 0 },
        experimental: { fsModuleCache: true },
      },
      {},
      {},
    );
    dropSignalListenersSince(before);
    await vitest.standalone();
    session = new SuiteSession(vitest, allure, plan, options.keepThreads === true);
    return session;
  }

  async run(profile: TargetProfile, options: RunOptions = {}): Promise<SuiteRun> {
    const { files, scope, rateLimitPhase, ...rest } = options;
    const part: RunPart = { profile, ...(files ? { files } : {}), ...(scope ? { scope } : {}), ...(rateLimitPhase === false ? { rateLimitPhase } : {}) };
    const [run] = await this.runTogether([part], rest);
    return run!;
  }

  /** Runs each part's files against its own target, all parts at once; one SuiteRun per part (phases are shared). */
  async runTogether(parts: RunPart[], options: Omit<RunOptions, 'files' | 'scope' | 'rateLimitPhase'> = {}): Promise<SuiteRun[]> {
    const specifications = await this.vitest.globTestSpecifications();
    const partOf = new Map<string, number>();
    const forTraffic = parts.map((part, index) => {
      const candidates = specifications.filter((spec) => matches(spec, part.files) && !partOf.has(spec.moduleId) && (part.rateLimitPhase !== false || !isRateLimitSuite(spec.moduleId)));
      const selection = select(candidates, part.profile.rules, part.scope ?? 'complete');
      for (const file of selection.files) partOf.set(file.spec.moduleId, index);
      return selection.forTraffic;
    });
    const stop = new RunStop(parts[0]!.profile.runPrefix, () => this.vitest.cancelCurrentRun('keyboard-input'), Math.min(parts[0]!.profile.timeouts.testMs, STOP_GRACE_MS));
    const profiles = parts.map((part, index) => ({ ...part.profile, runForTraffic: forTraffic[index]!, stopFile: stop.file }));
    const profileOf = (file: string) => profiles[partOf.get(file) ?? 0]!;
    const redactor = new Redactor(parts.flatMap((p) => secretsOf(p.profile)));
    const collector = new Collector(redactor, options.onRecord);
    this.collector = collector;
    this.allure?.useRedactor(redactor);
    const all = specifications.filter((s) => partOf.has(s.moduleId));
    this.vitest.provide('target', profiles[0]!);
    this.vitest.provide('targetsByFile', parts.length > 1 ? Object.fromEntries(all.map((s) => [s.moduleId, profileOf(s.moduleId)])) : {});
    const rateLimit = rateLimitPhases(all);
    const functional = all.filter((s) => !isRateLimitSuite(s.moduleId)).sort((a, b) => sizeOf(b) - sizeOf(a));
    const ordered = [...rateLimit.beforeFunctional, ...functional, ...rateLimit.afterFunctional];
    let expired = false;
    const deadline = options.deadlineMs
      ? setTimeout(() => {
          expired = true;
          collector.stopped = true;
          stop.stop(`the run was stopped after ${options.deadlineMs} ms (timeouts.runMs) before this test started`);
        }, options.deadlineMs)
      : undefined;
    const interrupt = () => stop.stop(`interrupted (${String(options.interrupt?.reason ?? 'SIGINT')}) before this test started`);
    if (options.interrupt?.aborted) interrupt();
    options.interrupt?.addEventListener('abort', interrupt);
    const started = performance.now();
    try {
      this.plan.begin(
        ordered.map((s) => s.moduleId),
        (file) => profileOf(file).baseUrl,
      );
      // A run abandoned after the grace period is not awaited any further: the runner goes on to sweep and report.
      if (ordered.length > 0 && stop.reason === undefined) await Promise.race([this.vitest.runTestSpecifications(ordered, false), stop.abandoned]);
      await this.allure?.written();
    } finally {
      clearTimeout(deadline);
      options.interrupt?.removeEventListener('abort', interrupt);
      stop.dispose();
      this.collector = undefined;
    }
    // The phases follow each other: each ends when its last test does.
    const firstTest = Math.max(started, this.plan.firstGrantAt ?? started);
    const endOf = (specs: TestSpecification[], from: number) => Math.max(from, ...specs.map((s) => this.plan.finishedAt(s.moduleId) ?? from));
    const beforeEnd = endOf(rateLimit.beforeFunctional, firstTest);
    const functionalEnd = endOf(functional, beforeEnd);
    const end = Math.max(functionalEnd, performance.now());
    const ms = (from: number, to: number) => Math.round(to - from);
    const phases = { startupMs: ms(started, firstTest), functionalMs: ms(beforeEnd, functionalEnd), rateLimitMs: ms(firstTest, beforeEnd) + ms(functionalEnd, end) };
    // why: a run cut short by its own time bound judged what it reached; the rest is not verified, never a failure
    const reachedBound = expired ? `the run reached its time bound, timeouts.runMs = ${options.deadlineMs} ms (CONFORMANCE_RUN_TIMEOUT_MS), and was stopped` : undefined;
    // Records and errors go to the part whose file they name; an error that names no file goes to every part.
    const partOfRelative = new Map([...partOf].map(([file, index]) => [relative(REPO_ROOT, file), index]));
    const namedPart = (error: string) => [...partOfRelative].find(([file]) => error.includes(file))?.[1];
    return parts.map((_, index) => ({
      records: collector.records.filter((r) => parts.length === 1 || partOfRelative.get(r.file) === index),
      errors: collector.errors.filter((e) => [undefined, index].includes(namedPart(e))),
      ...(index === 0 && collector.strayTransportFaults.length > 0 ? { strayTransportFaults: collector.strayTransportFaults } : {}),
      phases,
      ...(collector.bucketsFullAt ? { bucketsFullAt: collector.bucketsFullAt } : {}),
      ...(stop.reason !== undefined ? { stopped: stop.reason } : {}),
      ...(reachedBound ? { reachedBound } : {}),
      ...(stop.abandonedRun ? { abandoned: collector.running } : {}),
    }));
  }

  /** The suite files (module paths) a run of these rules loads (rule-selection.ts). */
  async filesFor(rules: readonly string[], scope: SelectionScope): Promise<string[]> {
    return select(await this.vitest.globTestSpecifications(), rules, scope).files.map((f) => f.spec.moduleId);
  }

  /** Tests of the current run that started and have not finished. */
  get running(): string[] {
    return this.collector?.running ?? [];
  }

  async close(): Promise<void> {
    this.plan.close();
    await this.vitest.close();
    // Only a session that kept threads ends the pool's: another may still be using the threads it keeps.
    if (this.keepsThreads) await KEPT_THREADS.close();
  }
}

// Suite files already share their thread's modules within a run (isolate: false); a kept thread shares them with the
// runs after it too. A thread serves 50 runs, then a fresh one takes over.
const KEPT_THREADS = keepAlivePool({ name: 'suite-keep-alive-threads', reusable: () => true, recycleAfterRuns: 50 });

/** Vitest starts the files in the order given: the bucket plan's order. */
class GivenOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files];
  }
}

/** Larger functional files first, so that no long one starts last (vitest's own default without a results cache). */
const sizeOf = (spec: TestSpecification) => statSync(spec.moduleId).size;

function select(specs: readonly TestSpecification[], rules: readonly string[], scope: SelectionScope) {
  return selectSuites(rules, specs.map((spec) => ({ spec, source: rules.length > 0 ? readFileSync(spec.moduleId, 'utf8') : '', serial: isRateLimitSuite(spec.moduleId) })), scope);
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
