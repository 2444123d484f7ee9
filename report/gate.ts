// The verdict of a staging gate (a run with --expectations): known gaps pass it, surprises fail it. Printed last in the
// terminal, in the HTML header and as a JUnit testcase, beside the report's own verdict, which stays honest.
import { basename } from 'node:path';
import type { ConformanceReport } from './conformance-report.ts';

export interface GateVerdict {
  passed: boolean;
  /** `GATE PASSED: 3 expected gaps, 0 unexpected (baseline staging.yaml)` */
  line: string;
}

export function gateVerdict(report: ConformanceReport): GateVerdict | undefined {
  const e = report.expectations;
  if (!e) return undefined;
  const unexpected = e.unexpected.length;
  const gaps = `${e.matched} expected gap${e.matched === 1 ? '' : 's'}`;
  const baseline = `baseline ${basename(e.file)}`;
  // the same terms as the exit code: any surprise, run error, instability or stop fails the gate
  const why = [
    report.summary.verdict === 'error' ? 'the run could not run' : '',
    report.summary.interrupted ? 'the run was interrupted' : '',
    report.errors.length > 0 ? `${report.errors.length} run error${report.errors.length === 1 ? '' : 's'}` : '',
    (report.repeat?.unstable.length ?? 0) > 0 ? `${report.repeat!.unstable.length} unstable rule${report.repeat!.unstable.length === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  const passed = unexpected === 0 && why.length === 0;
  const line = `GATE ${passed ? 'PASSED' : 'FAILED'}: ${gaps}, ${unexpected} unexpected${why.length ? `, ${why.join(', ')}` : ''} (${baseline})`;
  return { passed, line };
}
