// junit.xml for CI systems: one <testcase> per conformance test, grouped by suite file, with rule IDs and level
// as properties. Passive checks over all traffic and run errors get their own testcases, so a red CI matches
// a non-conformant verdict; one `summary` testcase carries the verdict (failed: non-conformant, skipped:
// incomplete, as not-verified tests are) and the certification grade.
import { requirement, isRuleId } from '../requirements/index.ts';
import type { TestRecord } from './test-record.ts';
import type { ConformanceReport } from './conformance-report.ts';
import { escapeMarkup as x } from './markup.ts';
import { certificationHeadline, exceptedLine, unverifiedGroups, verdictWhy } from './verdict-text.ts';

interface Case {
  classname: string;
  name: string;
  seconds: number;
  properties: [string, string][];
  failure?: { message: string; body: string };
  error?: { message: string; body: string };
  skipped?: string;
}

export function junitXml(report: ConformanceReport, records: TestRecord[]): string {
  const suites = new Map<string, Case[]>();
  const add = (suite: string, c: Case) => suites.set(suite, [...(suites.get(suite) ?? []), c]);
  for (const r of records) if (r.outcome !== 'deselected') add(r.file, testCase(r));
  for (const rule of report.requirements) {
    const passive = rule.tests.find((t) => t.name.startsWith('every exchange of the run'));
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

  const body = [...suites].map(([name, cases]) => suiteXml(name, cases)).join('');
  const all = [...suites.values()].flat();
  const totals = counts(all);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${x(`${report.suite.name} ${report.suite.version}`)}" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" skipped="${totals.skipped}" time="${(report.durationMs / 1000).toFixed(3)}" timestamp="${x(report.startedAt)}">\n${body}</testsuites>\n`;
}

/** junit.xml with its summary testcase (and the totals) redone for `report`: after a load run merged its verdicts. */
export function withSummary(xml: string, report: ConformanceReport): string {
  const suite = suiteXml('summary', [summaryCase(report)]);
  const at = xml.indexOf('  <testsuite name="summary"');
  const body = at >= 0 ? `${xml.slice(0, at)}${suite}${xml.slice(xml.indexOf('</testsuite>\n', at) + '</testsuite>\n'.length)}` : xml.replace('</testsuites>', `${suite}</testsuites>`);
  const count = (tag: string) => String(body.match(new RegExp(`<${tag}[ >]`, 'g'))?.length ?? 0);
  return body.replace(/<testsuites ([^>]*)>/, (_, attrs: string) => `<testsuites ${attrs
    .replace(/ tests="\d+"/, ` tests="${count('testcase')}"`)
    .replace(/ failures="\d+"/, ` failures="${count('failure')}"`)
    .replace(/ errors="\d+"/, ` errors="${count('error')}"`)
    .replace(/ skipped="\d+"/, ` skipped="${count('skipped')}"`)}>`);
}

function summaryCase(report: ConformanceReport): Case {
  const { verdict } = report.summary;
  const detail = [
    ...unverifiedGroups(report.summary).map((g) => `not verified (MUST) ${g.ids.join(', ')}: ${g.reason}`),
    exceptedLine(report.summary) ?? '',
    certificationHeadline(report),
    ...(report.certification?.reasons ?? []).map((r) => `  - ${r.text}`),
  ].filter(Boolean).join('\n');
  const message = `${verdict}: ${verdictWhy(report)}`;
  return {
    classname: 'summary',
    name: `summary verdict: ${verdict}`,
    seconds: 0,
    properties: [['verdict', verdict], ['certification-grade', String(report.certification?.certificationGrade ?? false)]],
    ...(verdict === 'non-conformant' ? { failure: { message, body: detail } } : {}),
    ...(verdict === 'incomplete' ? { skipped: `${message}\n${detail}` } : {}),
  };
}

function testCase(r: TestRecord): Case {
  const levels = r.rules.map((id) => (r.level ?? (isRuleId(id) ? requirement(id).level : 'MUST')));
  const c: Case = {
    classname: r.file,
    name: r.name,
    seconds: r.durationMs / 1000,
    properties: [...r.rules.map((id): [string, string] => ['rule', id]), ['level', levels.join(',')]],
  };
  if (r.state === 'failed') {
    const message = r.message ?? 'failed';
    c.failure = { message: firstLine(message), body: [message, ...r.evidence].join('\n\n') };
  }
  if (r.state === 'skipped') c.skipped = `${r.outcome ?? 'skipped'}: ${r.reason ?? ''}`;
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
