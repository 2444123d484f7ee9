// Merges load verdicts into an existing DIR/conformance.json: adds the load tests to the RL rules, recomputes
// those rules' verdicts (a failed MUST test → fail), the summary and the root causes, so the report stays
// self-consistent — a run whose only unverified MUST rule was RL-05 becomes complete here — and rewrites every
// artifact from the merged report (conformance.json, junit.xml, conformance.html, the Allure results): one merge,
// one story. Everything else of the report is kept.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeLoadAllureResults } from '../report/allure-load-results.ts';
import { buildReport, reportInputOf, type ConformanceReport } from '../report/conformance-report.ts';
import { decisiveGap, type RuleVerdict } from '../report/verdicts.ts';
import { writeReports } from '../report/write-reports.ts';
import { decide, type LoadRuleVerdict } from './verdict/judge.ts';

/** Load test names start with this; a re-merge replaces them instead of piling up. */
const LOAD_TEST_PREFIX = 'load ';

export function mergeIntoReport(dir: string, verdicts: LoadRuleVerdict[]): { file: string; report: ConformanceReport } | undefined {
  const file = join(dir, 'conformance.json');
  if (!existsSync(file)) return undefined;
  const report = mergeReport(JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport, verdicts);
  writeReports(dir, report);
  const loadTests = report.requirements.flatMap((rule) => rule.tests.filter((t) => t.name.startsWith(LOAD_TEST_PREFIX)).map((test) => ({ rule: rule.id, test })));
  writeLoadAllureResults(dir, loadTests, new Date());
  return { file, report };
}

export function mergeReport(report: ConformanceReport, verdicts: LoadRuleVerdict[]): ConformanceReport {
  const requirements = report.requirements.map((rule) => {
    const load = verdicts.find((v) => v.id === rule.id);
    if (!load) return rule;
    // why: a target that declares rate limiting off keeps RL rules not-applicable whatever the load run saw
    if (rule.verdict === 'not-applicable' && rule.tests.every((t) => t.status === 'not-applicable')) return rule;
    const tests = [...rule.tests.filter((t) => !t.name.startsWith(LOAD_TEST_PREFIX)), ...load.tests];
    const verdict = decide(rule.level, tests);
    const merged: RuleVerdict = { ...rule, verdict, tests };
    delete merged.reason;
    if (verdict === 'warn' && rule.level === 'MUST') merged.reason = 'only SHOULD-level cases failed';
    // why: the reason is what was not verified (no check over the limit, a starved generator), not a passing check's message
    const gap = decisiveGap(tests);
    if (verdict === 'not-verified') merged.reason = gap ? `no check over the limit was verified: ${gap.message ?? gap.name}` : ((tests.find((t) => t.status === 'not-verified' && t.message) ?? tests.find((t) => t.message))?.message ?? 'no test exercised this rule');
    return merged;
  });
  const rebuilt = buildReport(reportInputOf(report, requirements));
  // why: suite, certification, expectations, repeat (and fields this code does not know) describe the run, not the verdicts
  return { ...report, requirements, summary: { ...report.summary, ...rebuilt.summary }, rootCauses: rebuilt.rootCauses };
}
