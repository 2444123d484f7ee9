// Terminal output of a run: a running count, each failure as it happens, and a summary table per area.
import { AREAS } from '../../requirements/index.ts';
import type { ConformanceReport } from '../report/conformance-report.ts';
import type { Verdict } from '../report/verdicts.ts';
import type { TestRecord } from '../runner/test-record.ts';

export function progressPrinter(print: (line: string) => void): (record: TestRecord) => void {
  let done = 0;
  const started = Date.now();
  return (record) => {
    if (record.outcome === 'deselected') return;
    done += 1;
    if (record.state === 'failed') print(`  ✗ ${record.name}  (${record.file})`);
    if (done % 25 === 0) print(`  … ${done} tests done, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
}

const COLUMNS: Verdict[] = ['pass', 'fail', 'warn', 'not-verified', 'not-applicable'];

export function printSummary(report: ConformanceReport, print: (line: string) => void): void {
  const rows = Object.keys(AREAS).map((area) => {
    const rules = report.requirements.filter((r) => r.area === area);
    return [area, ...COLUMNS.map((v) => String(rules.filter((r) => r.verdict === v).length))];
  });
  const header = ['area', ...COLUMNS];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  print('');
  print(line(header));
  for (const row of rows) print(line(row));
  const failed = report.requirements.filter((r) => r.verdict === 'fail');
  for (const rule of failed) print(`FAIL ${rule.id} (${rule.level}): ${rule.text}`);
  if (report.errors.length > 0) for (const e of report.errors) print(`ERROR ${e}`);
  const { tests } = report.summary;
  print('');
  print(`${report.summary.verdict.toUpperCase()}: ${tests.passed} passed, ${tests.failed} failed, ${tests.notVerified} not verified, ${tests.notApplicable} not applicable (${(report.durationMs / 1000).toFixed(1)} s)`);
}
