// Whether a run can back a certification, and if not, every reason. Derived only from the report and the run's
// settings, so `verify-bundle` recomputes it from the bundle's files and catches a flag edited by hand.
import { basename } from 'node:path';
import { isReleasedSuite } from '../report/suite-info.ts';
import { declarationNotes } from '../report/declared-off.ts';
import type { Certification, CertificationReason, CertificationReasonCode, ConformanceReport } from '../report/conformance-report.ts';
import { loadPlanReasons, type LoadPlanSummary } from './load-plan.ts';

/** The run options that bear on certification: `settings.run`, or the `run` section of a bundle's configuration.json. */
export interface CertificationRunOptions {
  rules?: readonly string[];
  expectations?: string;
  readOnly?: boolean;
  /** `--no-drain`: the rate-limit rules ran without exhausting a bucket. */
  noDrain?: boolean;
}

/** `summary.interrupted`: a run stopped before its end (the Ctrl-C handling sets it). */
type ReportFacts = Pick<ConformanceReport, 'target' | 'suite' | 'leaks' | 'expectations'> & { summary: ConformanceReport['summary'] & { interrupted?: boolean } };

/**
 * The grade of a run, and of the load run merged into it when there was one (`load`: its summary as the bundle
 * carries it, certify/bundle.ts loadSummary): the report, `conformance load` and `verify-bundle` all grade with this.
 */
export function assessCertification(report: ReportFacts, run: CertificationRunOptions, load?: LoadPlanSummary): Certification {
  return withLoadPlan(assessRun(report, run), report, load);
}

/** `certification` with its load-plan reasons replaced by those of `load` (none when no load ran): what `conformance load` writes when it merges. */
export function withLoadPlan(certification: Certification, report: Pick<ConformanceReport, 'target'>, load: LoadPlanSummary | undefined): Certification {
  const reasons = [...certification.reasons.filter((r) => r.code !== 'load-plan'), ...loadPlanReasons(load, report).map((text) => ({ code: 'load-plan' as const, text }))];
  return { ...certification, certificationGrade: reasons.length === 0, reasons };
}

function assessRun(report: ReportFacts, run: CertificationRunOptions): Certification {
  const reasons: CertificationReason[] = [];
  const add = (code: CertificationReasonCode, text: string) => reasons.push({ code, text });
  const rules = run.rules ?? [];
  if (rules.length > 0) add('rule-subset', `only a subset of the rules ran (--rules ${abbreviate(rules)})`);
  if (run.expectations !== undefined || report.expectations) add('expectations-baseline', `an expectations baseline excused or skipped results (--expectations ${basename(run.expectations ?? report.expectations?.file ?? '')})`);
  if (report.target.embeddedReference) add('embedded-reference', 'the target is the embedded reference implementation, not a candidate');
  else if (report.target.identifiesAsReference !== undefined) add('identifies-as-reference', `the target identifies itself as the embedded reference (X-Conformance-Reference: ${report.target.identifiesAsReference}), not a candidate`);
  if (report.target.faults.length > 0) add('reference-fault', `deliberate fault(s) switched on in the reference: ${report.target.faults.join(', ')}`);
  if (run.readOnly) add('read-only', '--read-only: every check that changes the target was left out');
  if (run.noDrain) add('no-drain', '--no-drain: the rate-limit rules ran without draining the buckets first');
  if (report.summary.interrupted) add('interrupted', 'the run was interrupted before every suite finished');
  if (!isReleasedSuite(report.suite)) add('unreleased-suite', unreleased(report.suite));
  const injected = Object.keys(report.suite.injected ?? {});
  if (injected.length > 0) add('code-injected', `code outside the release could run inside the suite: ${injected.join(', ')} set for the run`);
  if (report.suite.code?.from === 'bundle' && report.suite.code.checked === 'unchecked') add('unchecked-code', 'the CLI ran from a bundle whose bytes nobody checked against the suite\'s files (started other than through bin/conformance.js)');
  if (report.leaks.length > 0) add('leaks', `${report.leaks.length} resource(s) the run created were left behind on the target`);
  const declared = report.target.declared ? declarationNotes(report.target.declared) : [];
  return { certificationGrade: reasons.length === 0, reasons, ...(declared.length > 0 ? { declared } : {}) };
}

function unreleased(suite: ReportFacts['suite']): string {
  const files = `its files (${suite.digest ?? 'no digest'})`;
  if (!suite.release) return `the suite is not a released version: no release manifest came with ${files}`;
  if (suite.release.version !== suite.version) return `the suite is not a released version: its release manifest is of ${suite.release.version}, the suite says ${suite.version}`;
  return `the suite is not a released version: ${files} differ from its release manifest of ${suite.release.version} (${suite.release.digest})`;
}

function abbreviate(ids: readonly string[]): string {
  return ids.length <= 8 ? ids.join(',') : `${ids.slice(0, 8).join(',')},… (${ids.length} rules)`;
}
