// reports/fuzz.json and the terminal account of a fuzz run: every finding with its minimal request and reproducer.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUITE_VERSION } from '../report/suite-info.ts';
import { requestsOf, type FuzzResult, type Finding } from './run-fuzz.ts';

export const FUZZ_FORMAT = 'notification-api-conformance/fuzz';

export interface FuzzTargetInfo {
  baseUrl: string;
  embeddedReference: boolean;
  faults: string[];
}

export function writeFuzzReport(dir: string, result: FuzzResult, target: FuzzTargetInfo, startedAt: Date): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'fuzz.json');
  const doc = {
    format: FUZZ_FORMAT,
    formatVersion: 1,
    suite: { name: 'notification-api-conformance', version: SUITE_VERSION },
    target,
    seed: result.seed,
    ...(result.timeS !== undefined ? { timeS: result.timeS } : { budget: result.budget }),
    runPrefix: result.runPrefix,
    startedAt: startedAt.toISOString(),
    durationMs: result.durationMs,
    summary: {
      requests: result.operations.reduce((n, o) => n + requestsOf(o), 0),
      findings: result.findings.length,
      errors: result.findings.filter((f) => f.level === 'error').length,
      warnings: result.findings.filter((f) => f.level === 'warning').length,
      notFuzzed: result.operations.filter((o) => o.setupFailed).map((o) => ({ operation: o.operation, setupFailed: o.setupFailed })),
      complete: !result.stopped,
    },
    operations: result.operations,
    findings: result.findings,
    leaks: result.leaks,
    ...(result.stopped ? { stopped: result.stopped } : {}),
  };
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  return file;
}

export function describeFinding(f: Finding, index: number, total: number): string[] {
  const where = f.broken ? ` (${f.broken.pointer || 'the body'}: ${f.broken.violation})` : '';
  const lines = [
    `FINDING ${index}/${total} [${f.level}] ${f.rule} ${f.operation}, ${f.mode} request${where}: ${f.message}`,
    f.mode === 'methods'
      ? '  request (one per method the path does not define):'
      : `  minimal request after ${f.shrinks} shrink step(s), found at generated request ${f.foundAfter} (fast-check seed ${f.replay.seed}, path ${f.replay.path}):`,
    `    ${f.request.method} ${f.request.path}${f.request.query ? `?${new URLSearchParams(f.request.query).toString()}` : ''}`,
  ];
  if (f.request.body !== undefined) lines.push(`    ${clip(JSON.stringify(f.request.body), 1_000)}`);
  lines.push(`  answer: ${f.response.status || 'none'} ${clip(f.response.body, 300)}`, `  reproduce: ${f.reproducer}`);
  return lines;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
