// Merges load verdicts into an existing DIR/conformance.json: adds the load tests to the RL rules, recomputes
// those rules' verdicts (a failed MUST test → fail) and the summary, so the report stays self-consistent: a run
// whose only unverified MUST rule was RL-05 becomes complete here. Everything else of the report is kept.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildReport, type ConformanceReport } from '../report/conformance-report.ts';
import type { RuleVerdict } from '../report/verdicts.ts';
import { decide, type LoadRuleVerdict } from './verdict/judge.ts';

/** Load test names start with this; a re-merge replaces them instead of piling up. */
const LOAD_TEST_PREFIX = 'load ';

export function mergeIntoReport(dir: string, verdicts: LoadRuleVerdict[]): { file: string; report: ConformanceReport } | undefined {
  const file = join(dir, 'conformance.json');
  if (!existsSync(file)) return undefined;
  const report = mergeReport(JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport, verdicts);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
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
    if (verdict === 'not-verified') merged.reason = tests.find((t) => t.message)?.message ?? 'no test exercised this rule';
    return merged;
  });
  const rebuilt = buildReport({
    target: report.target,
    startedAt: new Date(report.startedAt),
    finishedAt: new Date(report.finishedAt),
    requirements,
    leaks: report.leaks,
    errors: report.errors,
  });
  // why: suite, certification, expectations, repeat (and fields this code does not know) describe the run, not the verdicts
  return { ...report, requirements, summary: { ...report.summary, ...rebuilt.summary } };
}
