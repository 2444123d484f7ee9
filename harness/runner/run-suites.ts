// Runs the conformance suites in-process with vitest and returns what each test recorded.
// One vitest run starts the files in plan order: the rate-limit suites that need full buckets, the functional suites,
// the rate-limit suites that exhaust a bucket (rate-limit-phases.ts); the bucket plan starts each test once no
// earlier test it conflicts with is unfinished, so the rate-limit suites never run beside the functional ones.
// A session can run several times (e.g. once per reference fault) without paying vitest's start-up again.
import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, createVitest, type TestSpecification, type Vitest } from 'vitest/node';
import { Redactor } from '../http/redactor.ts';
import { secretsOf } from '../http/api-client.ts';
import { cleanAllureResults, ConformanceAllureReporter } from '../report/allure-reporter.ts';
import type { TargetProfile } from '../target-profile.ts';
import { BucketPlan } from './bucket-plan.ts';
import { Collector } from './collector.ts';
import { isRateLimitSuite, rateLimitPhases } from './rate-limit-phases.ts';
import type { TestRecord } from './test-record.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    /** Per suite file (absolute path), a target other than `target` (the fault proof runs several at once). */
    targetsByFile: Record<string, TargetProfile>;
  }
}

export interface SuiteRun {
  records: TestRecord[];
  errors: string[];
  /**
   * Wall-clock time until the first test started (workers importing the suites), of the functional suites, and of
   * the rate-limit suites before and after them together.
   */
  phases?: { startupMs: number; functionalMs: number; rateLimitMs: number };
  /** When the buckets the rate-limit suites exhausted are full again (epoch ms), as the target's headers said. */
  bucketsFullAt?: number;
}

export interface RunOptions {
  /** Only suite files whose path contains one of these strings. */
  files?: string[];
  /** The whole run is cancelled after this long; what finished is kept (timeouts.runMs). */
  deadlineMs?: number;
  /** Run the rate-limit suites too (default true). */
  rateLimitPhase?: boolean;
  onRecord?: (record: TestRecord) => void;
  /** Write Allure results here (emptied first); without it the session writes none. */
  allureResultsDir?: string;
}

/** Suite files run against one target; parts of one run go to different targets at the same time. */
export interface RunPart {
  profile: TargetProfile;
  /** Only suite files whose path contains one of these strings (default: all). */
  files?: string[];
  /** Run the rate-limit suites of this part too (default true). */
  rateLimitPhase?: boolean;
}

export class SuiteSession {
  private collector: Collector | undefined;

  private constructor(
    private readonly vitest: Vitest,
    private readonly allure: ConformanceAllureReporter | undefined,
    private readonly plan: BucketPlan,
  ) {}

  static async open(initial: TargetProfile, options: { allureResultsDir?: string } = {}): Promise<SuiteSession> {
    let session: SuiteSession | undefined;
    if (options.allureResultsDir) cleanAllureResults(options.allureResultsDir);
    const allure = options.allureResultsDir ? new ConformanceAllureReporter(options.allureResultsDir) : undefined;
    const plan = new BucketPlan();
    // The reporter forwards to the bucket plan and to whichever collector the current run installed.
    const relay = {
      onTestModuleCollected: (...args: Parameters<BucketPlan['onTestModuleCollected']>) => plan.onTestModuleCollected(...args),
      onTestCaseResult: (...args: Parameters<Collector['onTestCaseResult']>) => {
        plan.onTestCaseResult(...args);
        session?.collector?.onTestCaseResult(...args);
      },
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
        sequence: { sequencer: GivenOrder },
        provide: { target: initial, targetsByFile: {}, allure: allure !== undefined, bucketPlan: plan.channelName },
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
    session = new SuiteSession(vitest, allure, plan);
    return session;
  }

  async run(profile: TargetProfile, options: RunOptions = {}): Promise<SuiteRun> {
    const [run] = await this.runTogether([{ profile, ...(options.files ? { files: options.files } : {}), ...(options.rateLimitPhase === false ? { rateLimitPhase: false } : {}) }], options);
    return run!;
  }

  /** Runs each part's files against its own target, all parts at once; one SuiteRun per part (phases are shared). */
  async runTogether(parts: RunPart[], options: Omit<RunOptions, 'files' | 'rateLimitPhase'> = {}): Promise<SuiteRun[]> {
    const specifications = await this.vitest.globTestSpecifications();
    const partOf = new Map<string, number>();
    parts.forEach((part, index) => {
      for (const spec of specifications) {
        const wanted = matches(spec, part.files) && mentionsSelectedRule(spec, part.profile.rules) && (part.rateLimitPhase !== false || !isRateLimitSuite(spec.moduleId));
        if (wanted && !partOf.has(spec.moduleId)) partOf.set(spec.moduleId, index);
      }
    });
    const all = specifications.filter((s) => partOf.has(s.moduleId));
    const profileOf = (file: string) => parts[partOf.get(file) ?? 0]!.profile;
    const collector = new Collector(new Redactor(parts.flatMap((p) => secretsOf(p.profile))), options.onRecord);
    this.collector = collector;
    this.allure?.useRedactor(new Redactor(parts.flatMap((p) => secretsOf(p.profile))));
    this.vitest.provide('target', parts[0]!.profile);
    this.vitest.provide('targetsByFile', parts.length > 1 ? Object.fromEntries(all.map((s) => [s.moduleId, profileOf(s.moduleId)])) : {});
    const rateLimit = rateLimitPhases(all);
    const functional = all.filter((s) => !isRateLimitSuite(s.moduleId)).sort((a, b) => sizeOf(b) - sizeOf(a));
    const ordered = [...rateLimit.beforeFunctional, ...functional, ...rateLimit.afterFunctional];
    let expired = false;
    const deadline = options.deadlineMs
      ? setTimeout(() => {
          expired = true;
          collector.stopped = true;
          void this.vitest.cancelCurrentRun('keyboard-input');
        }, options.deadlineMs)
      : undefined;
    const started = performance.now();
    try {
      this.plan.begin(
        ordered.map((s) => s.moduleId),
        (file) => profileOf(file).baseUrl,
      );
      if (ordered.length > 0) await this.vitest.runTestSpecifications(ordered, false);
    } finally {
      clearTimeout(deadline);
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
    if (expired) collector.errors.push(`the run was stopped after ${options.deadlineMs} ms (timeouts.runMs); tests that had not finished have no verdict`);
    // Records and errors go to the part whose file they name; an error that names no file goes to every part.
    const partOfRelative = new Map([...partOf].map(([file, index]) => [relative(REPO_ROOT, file), index]));
    const namedPart = (error: string) => [...partOfRelative].find(([file]) => error.includes(file))?.[1];
    return parts.map((_, index) => ({
      records: collector.records.filter((r) => parts.length === 1 || partOfRelative.get(r.file) === index),
      errors: collector.errors.filter((e) => [undefined, index].includes(namedPart(e))),
      phases,
      ...(collector.bucketsFullAt ? { bucketsFullAt: collector.bucketsFullAt } : {}),
    }));
  }

  async close(): Promise<void> {
    this.plan.close();
    await this.vitest.close();
  }
}

/** Vitest starts the files in the order given: the bucket plan's order. */
class GivenOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files];
  }
}

/** Larger functional files first, so that no long one starts last (vitest's own default without a results cache). */
const sizeOf = (spec: TestSpecification) => statSync(spec.moduleId).size;

/** With --rules, a suite file that names none of the selected rule IDs has nothing to run: skip loading it. */
function mentionsSelectedRule(spec: TestSpecification, rules: string[]): boolean {
  if (rules.length === 0) return true;
  const text = readFileSync(spec.moduleId, 'utf8');
  return rules.some((id) => text.includes(`'${id}'`));
}

function matches(spec: TestSpecification, files: string[] | undefined): boolean {
  return !files || files.length === 0 || files.some((f) => spec.moduleId.includes(f));
}
