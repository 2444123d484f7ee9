// The versioned `conformance.json` document (format described in README.md § "conformance.json").
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SPEC_VERSION } from '../../requirements/index.ts';
import { SUITE_NAME, SUITE_VERSION } from '../suite-info.ts';
import type { ExpectationOutcome } from '../expectations/expectations.ts';
import type { DeclaredConfiguration } from './declared-configuration.ts';
import type { RuleVerdict, Verdict } from './verdicts.ts';

export const REPORT_FORMAT = 'notification-api-conformance/report';
export const REPORT_FORMAT_VERSION = 1;

export interface ConformanceReport {
  format: typeof REPORT_FORMAT;
  formatVersion: typeof REPORT_FORMAT_VERSION;
  suite: { name: string; version: string };
  spec: { version: string };
  /** `declared`: what the target declares it runs (features, trigger limit); absent in reports of older versions. */
  target: { baseUrl: string; regionalBaseUrl?: string; embeddedReference: boolean; faults: string[]; declared?: DeclaredConfiguration };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  summary: {
    verdict: 'conformant' | 'non-conformant';
    counts: Record<'MUST' | 'SHOULD' | 'INFO', Record<Verdict, number>>;
    tests: { total: number; passed: number; failed: number; notVerified: number; notApplicable: number };
  };
  requirements: RuleVerdict[];
  /** Resources the run created on the target and could not remove. */
  leaks: string[];
  /** Problems outside any test (crashed suite file, unhandled rejection), each already redacted. */
  errors: string[];
  /** With --expectations: how the run compares with the vendor's baseline. */
  expectations?: ExpectationOutcome;
  /** With --repeat: how many runs, and every rule whose verdict changed between them. */
  repeat?: { runs: number; unstable: { id: string; verdicts: string[] }[] };
}

export interface ReportInput {
  target: ConformanceReport['target'];
  startedAt: Date;
  finishedAt: Date;
  requirements: RuleVerdict[];
  leaks: string[];
  errors: string[];
}

export function buildReport(input: ReportInput): ConformanceReport {
  const counts = { MUST: emptyCounts(), SHOULD: emptyCounts(), INFO: emptyCounts() };
  for (const r of input.requirements) counts[r.level][r.verdict] += 1;
  const allTests = new Map<string, string>();
  for (const r of input.requirements) for (const t of r.tests) if (!t.name.startsWith('every exchange')) allTests.set(t.name, t.status);
  const statuses = [...allTests.values()];
  const failedMust = counts.MUST.fail > 0 || input.errors.length > 0;
  return {
    format: REPORT_FORMAT,
    formatVersion: REPORT_FORMAT_VERSION,
    suite: { name: SUITE_NAME, version: SUITE_VERSION },
    spec: { version: SPEC_VERSION },
    target: input.target,
    startedAt: input.startedAt.toISOString(),
    finishedAt: input.finishedAt.toISOString(),
    durationMs: input.finishedAt.getTime() - input.startedAt.getTime(),
    summary: {
      verdict: failedMust ? 'non-conformant' : 'conformant',
      counts,
      tests: {
        total: statuses.length,
        passed: statuses.filter((s) => s === 'passed').length,
        failed: statuses.filter((s) => s === 'failed').length,
        notVerified: statuses.filter((s) => s === 'not-verified').length,
        notApplicable: statuses.filter((s) => s === 'not-applicable').length,
      },
    },
    requirements: input.requirements,
    leaks: input.leaks,
    errors: input.errors,
  };
}

export function writeReport(dir: string, report: ConformanceReport): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'conformance.json');
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}

function emptyCounts(): Record<Verdict, number> {
  return { pass: 0, fail: 0, warn: 0, 'not-verified': 0, 'not-applicable': 0 };
}
