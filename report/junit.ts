// junit.xml for CI systems: one <testcase> per conformance test, grouped by suite file, with rule IDs and level
// as properties. Passive checks over all traffic, the load harness's tests and run errors get their own testcases,
// so a red CI matches a non-conformant verdict; one `summary` testcase carries the verdict (failed: non-conformant,
// skipped: incomplete, as not-verified tests are) and the certification grade. Written from the report alone, so a
// merge rewrites it too.
import type { ConformanceReport } from './conformance-report.ts';
import { gateVerdict, type GateVerdict } from './gate.ts';
import { escapeMarkup as x } from './markup.ts';
import { certificationHeadline, exceptedLine, unverifiedGroups, verdictWhy } from './verdict-text.ts';
import { PASSIVE_TEST, type RuleTest } from './verdicts.ts';

/** The testsuite of tests that belong to no suite file (the load harness's, merged by `conformance load`). */
const LOAD_SUITE = 'load';

interface Case {
  classname: string;
  name: string;
  seconds: number;
  properties: [string, string][];
  failure?: { message: string; body: string };
  error?: { message: string; body: string };
  skipped?: string;
}

export function junitXml(report: ConformanceReport): string {
  const suites = new Map<string, Case[]>();
  // why: appended in place; copying the list for every case made a report of many tests quadratic
  const add = (suite: string, c: Case) => (suites.get(suite) ?? suites.set(suite, []).get(suite)!).push(c);
  for (const { test, rules } of testsOf(report)) add(test.file ?? LOAD_SUITE, testCase(test, rules));
  for (const rule of report.requirements) {
    const passive = rule.tests.find((t) => t.name.startsWith(PASSIVE_TEST));
    if (!passive) continue;
    add('passive checks', {
      classname: 'passive checks',
      name: `${rule.id}: ${passive.name}`,
      seconds: 0,
      properties: [['rule', rule.id], ['level', rule.level]],
      ...(passive.status === 'failed' ? { failure: { message: `${rule.id} violated in recorded traffic`, body: passive.message ?? '' } } : {}),
    });
  }
  report.errors.forEach((e, i) => add('run errors', { classname: 'run errors', name: `error ${i + 1}`, seconds: 0, properties: [], error: { message: firstLine(e), body: e } }));
  add('summary', summaryCase(report));
  const gate = gateVerdict(report);
  if (gate) add('summary', gateCase(gate));

  const body = [...suites].map(([name, cases]) => suiteXml(name, cases)).join('');
  const all = [...suites.values()].flat();
  const totals = counts(all);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${x(`${report.suite.name} ${report.suite.version}`)}" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${(report.durationMs / 1000).toFixed(3)}" timestamp="${x(report.startedAt)}">\n${body}</testsuites>\n`;
}

function summaryCase(report: ConformanceReport): Case {
  const { verdict } = report.summary;
  const detail = [
    ...unverifiedGroups(report.summary).map((g) => `not verified (MUST) ${g.ids.join(', ')}: ${g.reason}`),
    exceptedLine(report.summary) ?? '',
    certificationHeadline(report),
    ...(report.certification?.reasons ?? []).map((r) => `  - ${r.text}`),
    ...(report.certification?.declared ?? []).map((d) => `  ${d}`),
  ].filter(Boolean).join('\n');
  const message = `${verdict}: ${verdictWhy(report)}`;
  return {
    classname: 'summary',
    name: `summary verdict: ${verdict}`,
    seconds: 0,
    properties: [['verdict', verdict], ['certification-grade', String(report.certification?.certificationGrade ?? false)]],
    ...(verdict === 'non-conformant' ? { failure: { message, body: detail } } : {}),
    // A run that could not run is an error of the run, not a failed check (JUnit's error, not failure).
    ...(verdict === 'error' ? { error: { message, body: report.summary.error ?? message } } : {}),
    ...(verdict === 'incomplete' ? { skipped: `${message}\n${detail}` } : {}),
  };
}

/** A staging gate's own testcase: passed on known gaps only, failed on any surprise (the summary keeps the verdict). */
function gateCase(gate: GateVerdict): Case {
  return {
    classname: 'summary',
    name: `gate against the baseline: ${gate.passed ? 'passed' : 'failed'}`,
    seconds: 0,
    properties: [['gate', gate.line]],
    ...(gate.passed ? {} : { failure: { message: gate.line, body: gate.line } }),
  };
}

/** Each test once, with every rule it names (a test of two rules is listed under both in the report). */
function testsOf(report: ConformanceReport): { test: RuleTest; rules: { id: string; level: string }[] }[] {
  const byName = new Map<string, { test: RuleTest; rules: { id: string; level: string }[] }>();
  for (const rule of report.requirements) {
    for (const test of rule.tests) {
      if (test.name.startsWith(PASSIVE_TEST)) continue;
      const entry = byName.get(test.name) ?? byName.set(test.name, { test, rules: [] }).get(test.name)!;
      entry.rules.push({ id: rule.id, level: test.level ?? rule.level });
    }
  }
  return [...byName.values()];
}

function testCase(test: RuleTest, rules: { id: string; level: string }[]): Case {
  const c: Case = {
    classname: test.file ?? LOAD_SUITE,
    name: test.name,
    seconds: test.durationMs / 1000,
    properties: [
      ...rules.map((r): [string, string] => ['rule', r.id]),
      ['level', rules.map((r) => r.level).join(',')],
      // a test that met transport faults ran again from the start: CI shows how often, and why
      ...(test.transport ? [['tries', String(test.transport.tries)] as [string, string], ...test.transport.faults.map((f): [string, string] => ['transport-fault', f])] : []),
    ],
  };
  if (test.status === 'failed') {
    const message = test.message ?? 'failed';
    c.failure = { message: firstLine(message), body: [message, ...(test.evidence ?? [])].join('\n\n') };
  }
  if (test.status === 'not-verified' || test.status === 'not-applicable') c.skipped = `${test.status}: ${test.message ?? ''}`;
  return c;
}

function suiteXml(name: string, cases: Case[]): string {
  const n = counts(cases);
  const time = cases.reduce((s, c) => s + c.seconds, 0);
  return `  <testsuite name="${x(name)}" tests="${n.tests}" failures="${n.failures}" errors="${n.errors}" skipped="${n.skipped}" time="${time.toFixed(3)}">\n${cases.map(caseXml).join('')}  </testsuite>\n`;
}

function caseXml(c: Case): string {
  const props = c.properties.length > 0 ? `      <properties>\n${c.properties.map(([k, v]) => `        <property name="${x(k)}" value="${x(v)}"/>\n`).join('')}      </properties>\n` : '';
  const failure = c.failure ? `      <failure message="${x(c.failure.message)}" type="AssertionError">${x(c.failure.body)}</failure>\n` : '';
  const error = c.error ? `      <error message="${x(c.error.message)}">${x(c.error.body)}</error>\n` : '';
  const skipped = c.skipped !== undefined ? `      <skipped message="${x(c.skipped)}"/>\n` : '';
  return `    <testcase classname="${x(c.classname)}" name="${x(c.name)}" time="${c.seconds.toFixed(3)}">\n${props}${failure}${error}${skipped}    </testcase>\n`;
}

function counts(cases: Case[]) {
  return {
    tests: cases.length,
    failures: cases.filter((c) => c.failure).length,
    errors: cases.filter((c) => c.error).length,
    skipped: cases.filter((c) => c.skipped !== undefined).length,
  };
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim().length > 0) ?? text;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
