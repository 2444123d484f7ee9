// The terminal's opening of a run's summary: what broke, one line per root cause, before the per-area table.
import type { ConformanceReport } from '../report/conformance-report.ts';
import { brokenRules, rootCauseHeadline } from '../report/root-causes.ts';

/** Root causes printed in full; the rest are in conformance.json and conformance.html. */
const SHOWN = 8;

export function printRootCauses(report: ConformanceReport, print: (line: string) => void): void {
  const headline = rootCauseHeadline(report.rootCauses, report.requirements);
  if (!headline) return;
  print('');
  print(headline);
  for (const cause of report.rootCauses.slice(0, SHOWN)) {
    const { fail, warn } = brokenRules(cause.rules, report.requirements);
    const counts = [fail > 0 ? `${fail} fail` : '', warn > 0 ? `${warn} warn` : ''].filter(Boolean).join(', ');
    // A single cause is already named by the headline.
    if (report.rootCauses.length > 1) print(`  ✘ ${cause.summary}`);
    print(`      ${cause.rules.join(' ')} (${counts}; ${cause.tests} test${cause.tests === 1 ? '' : 's'})`);
    print(`      e.g. ${cause.example.test}: ${firstLine(cause.example.message)}`);
  }
  if (report.rootCauses.length > SHOWN) print(`  … ${report.rootCauses.length - SHOWN} more root causes in conformance.json (rootCauses) and conformance.html`);
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim()) ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
