// `conformance prove --clean-report <conformance.json>`: the fault proof's clean-reference verdicts taken from a run
// that already judged the clean reference with this very suite (`npm test` runs one just before), instead of a second
// run of every suite. Taken only when the report can stand for that run; otherwise the reason is printed and the proof
// runs the clean reference itself.
import { existsSync, readFileSync } from 'node:fs';
import type { ConformanceReport } from '../../report/conformance-report.ts';
import { suiteSource, type SuiteSource } from '../../report/suite-info.ts';
import type { CleanVerdicts } from './fault-proof.ts';

/** What a report lacks to stand for the proof's own clean run: an empty list when it can. */
export function whyNotClean(report: Pick<ConformanceReport, 'target' | 'suite' | 'summary' | 'certification' | 'requirements'>, current: SuiteSource): string[] {
  const why: string[] = [];
  if (!report.target?.embeddedReference) why.push('its target is not the embedded reference');
  if ((report.target?.faults ?? []).length > 0) why.push(`it ran with fault(s) ${report.target.faults.join(', ')}`);
  // why: a load merged into the report (npm test's short one) grades certification; the suites' verdicts are the clean run's still
  const shortcuts = (report.certification?.reasons ?? []).filter((r) => !['embedded-reference', 'unreleased-suite', 'load-plan'].includes(r.code));
  if (!report.certification) why.push('it says nothing of how it ran (no certification section)');
  for (const reason of shortcuts) why.push(reason.text);
  if (current.commit === null || report.suite?.commit !== current.commit) why.push(`it ran another suite commit (${report.suite?.commit?.slice(0, 12) ?? 'none'}, this is ${current.commit?.slice(0, 12) ?? 'not a checkout'})`);
  else if (report.suite.dirty || current.dirty) why.push('the checkout has uncommitted changes, so the suite it ran may differ from this one');
  if (!Array.isArray(report.requirements) || report.requirements.length === 0) why.push('it holds no verdicts');
  return why;
}

/** The clean verdicts of the report at `file`, or why they cannot be used. */
export function readCleanReport(file: string, current: SuiteSource = suiteSource()): CleanVerdicts | { unusable: string } {
  if (!existsSync(file)) return { unusable: `${file} does not exist` };
  let report: ConformanceReport;
  try {
    report = JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport;
  } catch (error) {
    return { unusable: `${file} is not a JSON conformance report (${error instanceof Error ? error.message : String(error)})` };
  }
  const why = whyNotClean(report, current);
  if (why.length > 0) return { unusable: `${file} cannot stand for a clean run: ${why.join('; ')}` };
  return { verdicts: report.requirements, errors: report.errors ?? [], source: `${file} (run at ${report.startedAt})` };
}
