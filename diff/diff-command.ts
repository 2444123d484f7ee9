// `conformance diff`: the same deterministic sequence against the candidate and the reference (embedded unless
// given), every difference after normalization as {operation, path, reference, candidate} in reports/diff.json
// and on the terminal. Exit 0 no difference, 1 differences, 2 usage or an unreachable target.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Settings } from '../config/settings.ts';
import { closeTransport } from '../harness/http/transport.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from '../harness/runner/embedded-target.ts';
import { unreachable } from '../harness/runner/reachability.ts';
import { toProfile } from '../harness/runner/profile.ts';
import type { TargetProfile } from '../harness/target-profile.ts';
import { SUITE_VERSION } from '../report/suite-info.ts';
import { compare, runSequence, type DiffResult } from './run-diff.ts';

/** What was compared, what could not be, and what a diff cannot say: the closing lines of `conformance diff`. */
export function summarize(result: DiffResult): { compared: number; lines: string[] } {
  const answered = (side: string) => /^\d+$/.test(side);
  const compared = result.operations.filter((o) => answered(o.reference) && answered(o.candidate));
  const notCompared = result.operations.filter((o) => !answered(o.reference) || !answered(o.candidate));
  const changed = result.operations.filter((o) => o.differences > 0).length;
  const what = `${compared.length} of the ${result.operations.length} operations compared (one request each, the same to both sides, with bodies that leave defaults to the target)`;
  return {
    compared: compared.length,
    lines: [
      result.differences.length > 0 ? `${result.differences.length} difference(s) in ${changed} operation(s); ${what}.` : compared.length === 0 ? `Nothing compared: no operation was answered by both sides.` : `No differences in the answers: ${what}.`,
      ...notCompared.map((o) => `Not compared: ${o.operation} (reference: ${o.reference}; candidate: ${o.candidate})`),
      'diff compares answers to valid requests, not rules: a target that breaks rules can answer them as the reference does; `conformance run` judges the rules.',
    ],
  };
}

export const DIFF_FORMAT = 'notification-api-conformance/diff';

export interface DiffCommandOptions {
  /** Candidate settings: target.baseUrl and target.apiKey are required. */
  candidate: Settings;
  /** The reference to compare with; undefined starts the embedded reference. */
  reference?: { baseUrl: string; apiKey: string };
  reportDir: string;
}

export interface DiffOutcome {
  exitCode: 0 | 1 | 2;
  result?: DiffResult;
  reportFile?: string;
}

export async function diffCommand(options: DiffCommandOptions, log: (line: string) => void): Promise<DiffOutcome> {
  const startedAt = new Date();
  // one prefix for both sides: the requests must be the same, byte for byte
  const runPrefix = `cfd-${randomBytes(3).toString('hex')}`;
  let embedded: EmbeddedTarget | undefined;
  try {
    const candidate: TargetProfile = { ...toProfile(options.candidate, undefined), runPrefix };
    if (!options.reference) embedded = await startEmbeddedTarget([]);
    const referenceSettings: Settings = options.reference
      ? { ...options.candidate, target: { baseUrl: options.reference.baseUrl, apiKey: options.reference.apiKey } }
      : { ...options.candidate, target: {} };
    const reference: TargetProfile = { ...toProfile(referenceSettings, embedded), runPrefix };
    log(`Candidate: ${candidate.baseUrl}`);
    log(`Reference: ${embedded ? `embedded reference at ${reference.baseUrl}` : reference.baseUrl}`);
    for (const [side, profile] of [['candidate', candidate], ['reference', reference]] as const) {
      const why = await unreachable(profile);
      if (why) {
        log(`conformance diff: the ${side} is ${why}`);
        return { exitCode: 2 };
      }
    }
    const result = compare(await runSequence(reference), await runSequence(candidate));
    for (const op of result.operations) log(`  ${op.operation.padEnd(30)} reference ${op.reference}, candidate ${op.candidate}: ${op.differences} difference(s)`);
    for (const d of result.differences) log(`DIFF ${d.operation} ${d.path}: reference ${show(d.reference)}, candidate ${show(d.candidate)}`);
    for (const l of result.leaks) log(`LEAK (${l.side}): ${l.leak}`);
    const summary = summarize(result);
    for (const line of summary.lines) log(line);
    const reportFile = writeDiffReport(options.reportDir, result, { candidate: candidate.baseUrl, reference: reference.baseUrl, embeddedReference: embedded !== undefined, runPrefix, startedAt });
    log(`Report: ${reportFile}`);
    return { exitCode: result.differences.length > 0 ? 1 : summary.compared === 0 ? 2 : 0, result, reportFile };
  } finally {
    await closeTransport();
    await embedded?.reference.close();
  }
}

function writeDiffReport(dir: string, result: DiffResult, meta: { candidate: string; reference: string; embeddedReference: boolean; runPrefix: string; startedAt: Date }): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'diff.json');
  const doc = {
    format: DIFF_FORMAT,
    formatVersion: 1,
    suite: { name: 'notification-api-conformance', version: SUITE_VERSION },
    candidate: { baseUrl: meta.candidate },
    reference: { baseUrl: meta.reference, embeddedReference: meta.embeddedReference },
    runPrefix: meta.runPrefix,
    startedAt: meta.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    ...result,
  };
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
  return file;
}

function show(value: unknown): string {
  const text = typeof value === 'string' && value === '(absent)' ? value : JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
