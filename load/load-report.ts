// Writes DIR/load.json, prints one line per RL verdict (and every test that did not pass), merges into conformance.json.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeIntoReport } from './merge-into-report.ts';
import type { Timeline } from './timeline/format.ts';
import type { LoadRuleVerdict } from './verdict/judge.ts';

export const LOAD_FORMAT = 'notification-api-conformance/load';

export interface LoadDocument {
  engine: 'node' | 'k6';
  profile?: 'short' | 'full';
  target: Record<string, unknown>;
  expectedRps: number;
  startedAt: string;
  verdicts: LoadRuleVerdict[];
  leaks: string[];
  timelines: Timeline[];
}

/** Exit code: 1 when a MUST rule failed, else 0. */
export function reportLoad(reportDir: string, doc: LoadDocument, io: { log(s: string): void }): number {
  const file = join(reportDir, 'load.json');
  writeFileSync(file, `${JSON.stringify({ format: LOAD_FORMAT, formatVersion: 1, ...doc, finishedAt: new Date().toISOString() })}\n`);
  for (const v of doc.verdicts) {
    io.log(`${v.id} ${v.level} ${v.verdict}`);
    for (const t of v.tests) if (t.status !== 'passed') io.log(`  ${t.status}: ${t.name}\n    ${t.message ?? ''}`);
  }
  if (doc.leaks.length > 0) io.log(`Could not remove: ${doc.leaks.join('; ')}`);
  io.log(`Load report: ${file}`);
  const merged = mergeIntoReport(reportDir, doc.verdicts);
  if (merged) io.log(`Merged RL verdicts into ${merged}`);
  return doc.verdicts.some((v) => v.verdict === 'fail') ? 1 : 0;
}
