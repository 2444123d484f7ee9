// Merges load verdicts into an existing DIR/conformance.json: adds the load tests to the RL rules, recomputes
// those rules' verdicts (a failed MUST test → fail), the summary and the root causes, so the report stays
// self-consistent — a run whose only unverified MUST rule was RL-05 becomes complete here — and rewrites every
// artifact from the merged report (conformance.json, junit.xml, conformance.html, the Allure results): one merge,
// one story. The certification grade is regraded with the load plan (certify/certification.ts, as verify-bundle
// grades it): a short profile, a missing scenario, a Ctrl-C or recorded timelines deny it. Everything else is kept.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeLoadAllureResults } from '../report/allure-load-results.ts';
import { withLoadPlan } from '../certify/certification.ts';
import { loadSummary } from '../certify/bundle.ts';
import type { LoadPlanSummary } from '../certify/load-plan.ts';
import { buildReport, reportInputOf, type ConformanceReport } from '../report/conformance-report.ts';
import { decisiveGap, type RuleVerdict } from '../report/verdicts.ts';
import { writeReports } from '../report/write-reports.ts';
import { decide, type LoadRuleVerdict } from './verdict/judge.ts';

/** Load test names start with this; a re-merge replaces them instead of piling up. */
const LOAD_TEST_PREFIX = 'load ';

/** `load`: the load run's document (DIR/load.json), whose plan the certification grade is judged on. */
export function mergeIntoReport(dir: string, verdicts: LoadRuleVerdict[], load: unknown): { file: string; report: ConformanceReport } | undefined {
  const file = join(dir, 'conformance.json');
  if (!existsSync(file)) return undefined;
  const report = mergeReport(JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport, verdicts, load);
  writeReports(dir, report);
  const loadTests = report.requirements.flatMap((rule) => rule.tests.filter((t) => t.name.startsWith(LOAD_TEST_PREFIX)).map((test) => ({ rule: rule.id, test })));
  writeLoadAllureResults(dir, loadTests, new Date());
  return { file, report };
}

export function mergeReport(report: ConformanceReport, verdicts: LoadRuleVerdict[], load?: unknown): ConformanceReport {
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
  // why: suite, expectations, repeat (and fields this code does not know) describe the run, not the verdicts
  const merged = { ...report, requirements, summary: { ...report.summary, ...rebuilt.summary }, rootCauses: rebuilt.rootCauses };
  // why: the bundle carries the load as loadSummary() gives it, and verify-bundle grades that: so is it graded here
  if (report.certification && load !== undefined) merged.certification = withLoadPlan(report.certification, report, loadSummary(load) as LoadPlanSummary | undefined);
  return merged;
}
