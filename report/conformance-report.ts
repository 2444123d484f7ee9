// The versioned `conformance.json` document (format described in docs/report-format.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRuleId, requirement, SPEC_VERSION } from '../requirements/index.ts';
import { SUITE_NAME, SUITE_VERSION, suiteSource, type SuiteSource } from './suite-info.ts';
import type { DeclaredConfiguration } from './declared-configuration.ts';
import { ruleCatalogDigest } from './suite-release.ts';
import { rootCausesOf, type RootCause } from './root-causes.ts';
import type { RuleVerdict, Verdict } from './verdicts.ts';

/** How the run compared with an expectations file (computed by harness/expectations). */
export interface UnexpectedResult {
  key: string;
  expected: Verdict[];
  actual: string;
  kind: 'unexpected-pass' | 'unexpected-result';
}

export interface ExpectationOutcome {
  file: string;
  matched: number;
  unexpected: UnexpectedResult[];
  /** Keys that named nothing in this run (a renamed test, a typo). */
  unused: string[];
}

export const REPORT_FORMAT = 'notification-api-conformance/report';
export const REPORT_FORMAT_VERSION = 1;

export interface ConformanceReport {
  format: typeof REPORT_FORMAT;
  formatVersion: typeof REPORT_FORMAT_VERSION;
  suite: { name: string; version: string } & SuiteSource;
  /** `catalogDigest`: the rule catalog the verdicts answer (suite-release.ts); absent in reports of older versions. */
  spec: { version: string; catalogDigest?: string };
  /** `declared`: what the target declares it runs (features, trigger limit); absent in reports of older versions. */
  target: {
    baseUrl: string;
    regionalBaseUrl?: string;
    embeddedReference: boolean;
    /** A target of one's own that answered with the reference's X-Conformance-Reference header: its value (the reference's version). */
    identifiesAsReference?: string;
    faults: string[];
    declared?: DeclaredConfiguration;
  };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  summary: {
    verdict: SummaryVerdict;
    /** With verdict `error`: why the run could not run (the target refused the key, no report folder, …). */
    error?: string;
    /** The run was stopped (Ctrl-C, SIGTERM) before it finished: the verdicts are those reached so far. */
    interrupted: boolean;
    counts: Record<'MUST' | 'SHOULD' | 'INFO', Record<Verdict, number>>;
    tests: { total: number; passed: number; failed: number; notVerified: number; notApplicable: number };
    /** MUST rules neither `pass` nor `not-applicable` (nor excepted below), with why: what keeps a run from `conformant`. */
    unverifiedMust: UnverifiedRule[];
    /** MUST rules the catalog marks observable only when they happen (ERR-08, RL-10), not observed in this run. */
    exceptedMust: string[];
    /**
     * Transport faults (reset, refused, no answer) the tests met, and how many tests ran again because of them; `stray`:
     * faults of requests whose rejection no test awaited in time (network events, never a verdict nor a run error).
     */
    transport?: { faultsMet: number; testsRetried: number; stray?: string[] };
  };
  /** Whether this run can back a certification, and every reason it cannot (see certification.ts). */
  certification?: Certification;
  /** Failures and warnings grouped by what failed: one bug, one entry, with every rule it breaks. */
  rootCauses: RootCause[];
  requirements: RuleVerdict[];
  /** Resources the run created on the target and could not remove. */
  leaks: string[];
  /** Problems outside any test (crashed suite file, unhandled rejection), each already redacted. */
  errors: string[];
  /** With --expectations: how the run compares with the vendor's baseline. */
  expectations?: ExpectationOutcome;
  /** With --repeat: how many runs, and every rule whose verdict changed between them. */
  repeat?: { runs: number; unstable: { id: string; verdicts: string[] }[] };
}

/** `incomplete`: no MUST rule failed, but some MUST rule was not verified; `error`: the run could not run at all. */
export type SummaryVerdict = 'conformant' | 'incomplete' | 'non-conformant' | 'error';

export interface UnverifiedRule {
  id: string;
  reason: string;
  /** `conformance load` verifies this rule: merging its verdicts can complete the run. */
  verifiedByLoad?: true;
}

export interface ReportInput {
  target: ConformanceReport['target'];
  startedAt: Date;
  finishedAt: Date;
  requirements: RuleVerdict[];
  leaks: string[];
  errors: string[];
  /** Transport faults of requests whose rejection no test awaited in time. */
  strayTransportFaults?: string[];
  interrupted?: boolean;
  /** Why the run could not run (set-up or target unreachable): the verdict is `error`, no rule was judged. */
  couldNotRun?: string;
}

export function buildReport(input: ReportInput): ConformanceReport {
  const counts = { MUST: emptyCounts(), SHOULD: emptyCounts(), INFO: emptyCounts() };
  for (const r of input.requirements) counts[r.level][r.verdict] += 1;
  const allTests = new Map<string, string>();
  const retried = new Map<string, number>();
  for (const r of input.requirements) {
    for (const t of r.tests) {
      if (!t.name.startsWith('every exchange')) allTests.set(t.name, t.status);
      if (t.transport) retried.set(t.name, t.transport.faults.length);
    }
  }
  const statuses = [...allTests.values()];
  const failedMust = counts.MUST.fail > 0 || input.errors.length > 0;
  const stray = input.strayTransportFaults ?? [];
  const { unverifiedMust, exceptedMust } = mustCoverage(input.requirements);
  return {
    format: REPORT_FORMAT,
    formatVersion: REPORT_FORMAT_VERSION,
    suite: { name: SUITE_NAME, version: SUITE_VERSION, ...suiteSource() },
    spec: { version: SPEC_VERSION, catalogDigest: ruleCatalogDigest() },
    target: input.target,
    startedAt: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    durationMs: input.finishedAt.getTime() - input.startedAt.getTime(),
    summary: {
      verdict: input.couldNotRun !== undefined ? 'error' : failedMust ? 'non-conformant' : unverifiedMust.length > 0 ? 'incomplete' : 'conformant',
      ...(input.couldNotRun !== undefined ? { error: input.couldNotRun } : {}),
      interrupted: input.interrupted ?? false,
      counts,
      tests: {
        total: statuses.length,
        passed: statuses.filter((s) => s === 'passed').length,
        failed: statuses.filter((s) => s === 'failed').length,
        notVerified: statuses.filter((s) => s === 'not-verified').length,
        notApplicable: statuses.filter((s) => s === 'not-applicable').length,
      },
      unverifiedMust,
      exceptedMust,
      ...(retried.size > 0 || stray.length > 0 ? { transport: { faultsMet: [...retried.values()].reduce((a, b) => a + b, 0), testsRetried: retried.size, ...(stray.length > 0 ? { stray } : {}) } } : {}),
    },
    rootCauses: rootCausesOf(input.requirements),
    requirements: input.requirements,
    leaks: input.leaks,
    errors: input.errors,
  };
}

/**
 * What `buildReport` was given, read back from a report it built: the load merge and `verify-bundle` rebuild the
 * summary from it, so a reader recomputes exactly what the writer wrote (one source of truth).
 */
export function reportInputOf(report: ConformanceReport, requirements: RuleVerdict[] = report.requirements): ReportInput {
  return {
    target: report.target,
    startedAt: new Date(report.startedAt),
    finishedAt: new Date(report.finishedAt),
    requirements,
    leaks: report.leaks ?? [],
    errors: report.errors ?? [],
    interrupted: report.summary?.interrupted === true,
    ...(report.summary?.verdict === 'error' ? { couldNotRun: report.summary.error ?? '' } : {}),
  };
}

/**
 * 0 conformant, 1 non-conformant, 2 could not run (error), 3 incomplete. With `loadFollows`, an incomplete run whose every unverified MUST rule
 * is one `conformance load` verifies exits 0: the load run that follows merges those rules and decides in its turn.
 */
export function verdictExitCode(report: ConformanceReport, loadFollows = false): 0 | 1 | 2 | 3 {
  const { verdict, unverifiedMust } = report.summary;
  if (verdict === 'error') return 2;
  if (verdict === 'non-conformant') return 1;
  if (verdict === 'conformant') return 0;
  return loadFollows && unverifiedMust.every((r) => r.verifiedByLoad) ? 0 : 3;
}

export function writeReport(dir: string, report: ConformanceReport): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'conformance.json');
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}

/** Conformant needs every MUST rule `pass` or `not-applicable`; rules observable only when they happen are excepted. */
function mustCoverage(requirements: RuleVerdict[]): { unverifiedMust: UnverifiedRule[]; exceptedMust: string[] } {
  const unverifiedMust: UnverifiedRule[] = [];
  const exceptedMust: string[] = [];
  for (const r of requirements) {
    if (r.level !== 'MUST' || r.verdict === 'pass' || r.verdict === 'not-applicable' || r.verdict === 'fail') continue;
    // A MUST rule whose MUST case passed and only a SHOULD-level case failed is verified (its verdict is warn).
    if (r.verdict === 'warn' && r.tests.some((t) => t.status === 'passed' && t.level !== 'SHOULD')) continue;
    const rule = isRuleId(r.id) ? requirement(r.id) : undefined;
    if (rule?.observableOnlyWhenItHappens) exceptedMust.push(r.id);
    else unverifiedMust.push({ id: r.id, reason: r.reason ?? r.verdict, ...(rule?.verifiedBy === 'load' ? { verifiedByLoad: true as const } : {}) });
  }
  return { unverifiedMust, exceptedMust };
}

function emptyCounts(): Record<Verdict, number> {
  return { pass: 0, fail: 0, warn: 0, 'not-verified': 0, 'not-applicable': 0 };
}

// Whether a run can back a certification (computed in certification.ts).
export type CertificationReasonCode =
  | 'rule-subset'
  | 'expectations-baseline'
  | 'embedded-reference'
  | 'identifies-as-reference'
  | 'reference-fault'
  | 'read-only'
  | 'no-drain'
  | 'interrupted'
  | 'unreleased-suite'
  | 'code-injected'
  /** The CLI ran from a bundle whose bytes were not checked against the sources the digest covers. */
  | 'unchecked-code'
  | 'leaks'
  /** The load run merged into the report did not measure what certification needs (certify/load-plan.ts). */
  | 'load-plan';

export interface CertificationReason {
  code: CertificationReasonCode;
  text: string;
}

export interface Certification {
  certificationGrade: boolean;
  reasons: CertificationReason[];
  /** What the target declared off, which took rules out without denying the grade (absent when nothing was). */
  declared?: string[];
}
