// Terminal output of a run: progress per area with the elapsed time, each failure as it happens, and a
// summary table of verdicts per area at the end.
import { AREAS, isRuleId, requirement } from '../requirements/index.ts';
import type { ConformanceReport } from '../report/conformance-report.ts';
import { certificationHeadline, exceptedLine, idList, transportLine, unverifiedGroups, verdictWhy } from '../report/verdict-text.ts';
import type { Verdict } from '../report/verdicts.ts';
import type { TestRecord } from '../report/test-record.ts';
import { printRootCauses } from './print-root-causes.ts';

/** A progress line after this many tests, or after this long since the last one. */
const EVERY_TESTS = 25;
const EVERY_MS = 10_000;

export function progressPrinter(print: (line: string) => void, now: () => number = Date.now): (record: TestRecord) => void {
  const started = now();
  let lastLine = started;
  let done = 0;
  // why: under --rules most tests run only for their traffic; they are the run's progress too, so a selective run is
  // never silent for its whole length (a silent run looks hung to whoever watches its output)
  let forTraffic = 0;
  let sinceLine = 0;
  const areas = new Map<string, { done: number; failed: number }>();
  return (record) => {
    sinceLine += 1;
    if (record.outcome === 'deselected') forTraffic += 1;
    else {
      done += 1;
      const area = areaOf(record);
      const counts = areas.get(area) ?? { done: 0, failed: 0 };
      counts.done += 1;
      if (record.state === 'failed') counts.failed += 1;
      areas.set(area, counts);
      if (record.state === 'failed') print(`  ✗ [${area}] ${record.name}  (${record.file})`);
    }
    if (sinceLine >= EVERY_TESTS || now() - lastLine >= EVERY_MS) {
      const perArea = [...areas].map(([a, c]) => `${a} ${c.done}${c.failed > 0 ? ` (${c.failed} ✗)` : ''}`).join(' · ');
      const traffic = forTraffic > 0 ? `(and ${forTraffic} run for traffic only)` : '';
      print(`  … ${[seconds(now() - started), `${done} tests done`, perArea, traffic].filter(Boolean).join('  ')}`);
      lastLine = now();
      sinceLine = 0;
    }
  };
}

function areaOf(record: TestRecord): string {
  const id = record.rules[0];
  return id && isRuleId(id) ? requirement(id).area : '?';
}

const COLUMNS: Verdict[] = ['pass', 'fail', 'warn', 'not-verified', 'not-applicable'];

export function printSummary(report: ConformanceReport, print: (line: string) => void): void {
  if (report.summary.verdict === 'error') return printCouldNotRun(report, print);
  const areaRows = Object.keys(AREAS).map((area) => {
    const rules = report.requirements.filter((r) => r.area === area);
    return [area, ...COLUMNS.map((v) => count(rules.filter((r) => r.verdict === v).length)), String(rules.length)];
  });
  const totals = ['all', ...COLUMNS.map((v) => count(report.requirements.filter((r) => r.verdict === v).length)), String(report.requirements.length)];
  const header = ['area', ...COLUMNS, 'rules'];
  const rows = [header, ...areaRows, totals];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const rule = widths.map((w) => '─'.repeat(w)).join('  ');
  printRootCauses(report, print);
  print('');
  print(line(header));
  print(rule);
  for (const row of areaRows) print(line(row));
  print(rule);
  print(line(totals));
  print('');
  for (const r of report.requirements.filter((x) => x.verdict === 'fail')) print(`FAIL ${r.id} (${r.level}): ${r.text}`);
  for (const r of report.requirements.filter((x) => x.verdict === 'warn')) print(`WARN ${r.id} (${r.level}): ${r.text}`);
  for (const e of report.errors) print(`ERROR ${e}`);
  for (const group of unverifiedGroups(report.summary)) print(`NOT VERIFIED (MUST) ${idList(group.ids)}: ${group.reason}`);
  const excepted = exceptedLine(report.summary);
  if (excepted) print(excepted);
  const network = transportLine(report.summary);
  if (network) print(`Network: ${network}`);
  print(certificationHeadline(report));
  for (const r of report.certification?.reasons ?? []) print(`  - ${r.text}`);
  // a declaration takes rules out without denying the grade: said beside it, so a reader sees what was not judged
  for (const d of report.certification?.declared ?? []) print(`  ${d}`);
  const { tests } = report.summary;
  print('');
  print(`${report.summary.verdict.toUpperCase()}: ${verdictWhy(report)}`);
  print(`${tests.passed} passed, ${tests.failed} failed, ${tests.notVerified} not verified, ${tests.notApplicable} not applicable (${seconds(report.durationMs)})`);
  // The plain closing line CI systems read: tests without a verdict of their own count as skipped.
  print(`tests: ${tests.passed} passed, ${tests.failed} failed, ${tests.notVerified + tests.notApplicable} skipped`);
}

/** A run that never judged a rule: the reason is the whole story, no table of rules nobody tested. */
function printCouldNotRun(report: ConformanceReport, print: (line: string) => void): void {
  print('');
  print(`COULD NOT RUN: ${report.summary.error ?? 'reason not recorded'}`);
  for (const e of report.errors) print(`ERROR ${e}`);
  const exit = report.summary.interrupted ? 130 : 2;
  print(`No rule was judged: this says nothing about the target's conformance (exit ${exit}). (${seconds(report.durationMs)})`);
  print('tests: 0 passed, 0 failed, 0 skipped');
}

/** Zeros fade into the table so the numbers that matter stand out. */
function count(n: number): string {
  return n === 0 ? '·' : String(n);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
