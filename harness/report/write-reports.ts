// Every artifact of a run is written here, from the report and the raw test records.
import type { TestRecord } from '../runner/test-record.ts';
import { writeReport, type ConformanceReport } from './conformance-report.ts';

export interface WrittenReports {
  conformanceJson: string;
}

export function writeReports(dir: string, report: ConformanceReport, _records: TestRecord[]): WrittenReports {
  return { conformanceJson: writeReport(dir, report) };
}
