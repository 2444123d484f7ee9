// Writes DIR/load.json, prints one line per RL verdict (and every test that did not pass), merges into conformance.json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verdictExitCode, type ConformanceReport } from '../report/conformance-report.ts';
import { loadTargetFacts, loadTargetMismatch, reportTargetFacts } from '../report/load-target.ts';
import { SECRET_PLACEHOLDERS } from '../config/env-vars.ts';
import { Redactor } from '../report/redactor.ts';
import { certificationHeadline } from '../report/verdict-text.ts';
import { mergeIntoReport } from './merge-into-report.ts';
import type { Timeline } from './timeline/format.ts';
import type { LoadRuleVerdict } from './verdict/judge.ts';

export const LOAD_FORMAT = 'notification-api-conformance/load';

/** What `conformance load` exits with when a Ctrl-C cut it short (after cleaning up and reporting). */
export const LOAD_INTERRUPTED = 130;

export interface LoadDocument {
  engine: 'node' | 'k6';
  /** The engine's version: the suite's for the built-in engine, what `k6 version` printed for k6; absent when timelines did not record it. */
  engineVersion?: string;
  profile?: 'short' | 'full';
  target: Record<string, unknown>;
  expectedRps: number;
  startedAt: string;
  verdicts: LoadRuleVerdict[];
  leaks: string[];
  /** Set when a Ctrl-C cut the run short: what was judged only as far as it went, and what never ran. */
  interrupted?: LoadInterruption;
  timelines: Timeline[];
}

export interface LoadInterruption {
  signal: string;
  /** Scenarios cut short: when, and the phases that were therefore not judged. */
  cut: { scenario: string; atMs: number; phasesNotJudged: string[] }[];
  notRun: string[];
}

/** Every string of `value` with the keys replaced (a key inside a JSON string would not survive JSON escaping). */
function redactedDeep<T>(value: T, redactor: Redactor): T {
  if (typeof value === 'string') return redactor.text(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactedDeep(v, redactor)) as T;
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactor.text(k), redactedDeep(v, redactor)])) as T;
  return value;
}

export function interruptionOf(signal: string, timelines: Timeline[], notRun: string[]): LoadInterruption {
  const cut = timelines.flatMap((tl) => (tl.interrupted ? [{ scenario: tl.scenario, atMs: Math.round(tl.interrupted.atMs), phasesNotJudged: tl.interrupted.phases.map((p) => p.name) }] : []));
  return { signal, cut, notRun };
}

/**
 * Exit code: 130 when interrupted, 1 when a MUST rule failed; else, when the load joined a run's report, what that run
 * now is (0 conformant, 3 incomplete; a baseline run keeps its own exit); alone, 3 when a MUST rule was not verified, else 0.
 */
export function reportLoad(reportDir: string, measured: LoadDocument, io: { log(s: string): void }, keys: readonly (string | undefined)[] = []): number {
  const file = join(reportDir, 'load.json');
  // why: a target may echo the caller's key in an answer (a 429 body): like a run, nothing is written or printed with it
  const doc = redactedDeep(measured, new Redactor(keys.map((value) => ({ value: value ?? '', placeholder: SECRET_PLACEHOLDERS.apiKey }))));
  const mismatch = reportMismatch(reportDir, doc);
  if (mismatch) {
    io.log(`conformance load: ${mismatch}: nothing written to ${reportDir} and nothing merged (one target per report: give another --report-dir)`);
    return 2;
  }
  const written = { format: LOAD_FORMAT, formatVersion: 1, ...doc, finishedAt: new Date().toISOString() };
  writeFileSync(file, `${JSON.stringify(written)}\n`);
  for (const v of doc.verdicts) {
    io.log(`${v.id} ${v.level} ${v.verdict}`);
    for (const t of v.tests) if (t.status !== 'passed') io.log(`  ${t.status}: ${t.name}\n    ${t.message ?? ''}`);
  }
  if (doc.leaks.length > 0) io.log(`Could not remove: ${doc.leaks.join('; ')}`);
  else if (doc.interrupted) io.log('The load fixture (workflow and subscribers) was removed.');
  if (doc.interrupted) for (const line of describeInterruption(doc.interrupted)) io.log(line);
  io.log(`Load report: ${file}`);
  const merged = mergeIntoReport(reportDir, doc.verdicts, written);
  if (merged) {
    io.log(`Merged RL verdicts into ${merged.file}: the run is now ${merged.report.summary.verdict}${describeUnverified(merged.report)}`);
    io.log(certificationHeadline(merged.report));
    for (const r of merged.report.certification?.reasons ?? []) io.log(`  - ${r.text}`);
  }
  const loadFailed = doc.verdicts.some((v) => v.verdict === 'fail');
  if (doc.interrupted) return LOAD_INTERRUPTED;
  // a MUST rule the load could not judge (a starved generator) leaves the load incomplete, as it would a run
  if (!merged) return loadFailed ? 1 : doc.verdicts.some((v) => v.level === 'MUST' && v.verdict === 'not-verified') ? 3 : 0;
  // why: merging completes (or not) the run it joins, so the exit says what that run now is; a baseline run keeps its own exit
  return loadFailed ? 1 : merged.report.expectations ? 0 : verdictExitCode(merged.report);
}

/** Why the load run does not belong in DIR's report (another target), if a report is there. */
function reportMismatch(reportDir: string, doc: LoadDocument): string | undefined {
  const report = join(reportDir, 'conformance.json');
  if (!existsSync(report)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    return `${report} is not a report of \`conformance run\``;
  }
  return loadTargetMismatch(reportTargetFacts(parsed), loadTargetFacts(doc));
}

function describeUnverified(report: ConformanceReport): string {
  const ids = report.summary.unverifiedMust.map((r) => r.id);
  if (ids.length === 0) return '';
  return ` (${ids.length} MUST rule(s) not verified: ${ids.slice(0, 8).join(', ')}${ids.length > 8 ? ', …' : ''})`;
}

function describeInterruption(i: LoadInterruption): string[] {
  return [
    `INTERRUPTED (${i.signal}): the verdicts above judge the timeline only as far as it went.`,
    ...i.cut.map((c) => `  ${c.scenario} stopped at ${(c.atMs / 1000).toFixed(1)} s; phase(s) not judged: ${c.phasesNotJudged.join(', ') || 'none'}`),
    ...(i.notRun.length > 0 ? [`  not run: ${i.notRun.join(', ')}`] : []),
  ];
}
