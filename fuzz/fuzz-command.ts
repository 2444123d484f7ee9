// `conformance fuzz`: the target (given, or the embedded reference), a pre-flight, the fuzz run, reports/fuzz.json,
// every finding printed with its minimal request and reproducer. Whatever the target answers, fuzz.json is written
// with what was found and, when the run could not finish, why it stopped.
import type { FaultName } from '../reference/index.ts';
import type { Settings } from '../config/settings.ts';
import { closeTransport } from '../harness/http/transport.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from '../harness/runner/embedded-target.ts';
import { toProfile } from '../harness/runner/profile.ts';
import type { TargetProfile } from '../harness/target-profile.ts';
import { describeFinding, writeFuzzReport } from './fuzz-report.ts';
import { probeReportDir } from '../report/report-dir.ts';
import { escapeForTerminal } from '../report/terminal-text.ts';
import { preflight } from '../harness/runner/preflight.ts';
import { requestsOf, runFuzz, type FuzzResult } from './run-fuzz.ts';
import { FUZZ_TARGET_IDS } from './targets.ts';

export interface FuzzCommandOptions {
  seed: number;
  budget: number;
  timeS?: number;
  /** When the command started (epoch ms): `timeS` is a budget for the whole command, start-up included. */
  commandStartedMs?: number;
  operations: string[];
  /** Fixes the run prefix (tests of reproducibility); normally a fresh one per run. */
  runPrefix?: string;
}

export interface FuzzOutcome {
  /** 0 nothing found, 1 findings, 2 usage error or a run that could not run or stopped, 3 nothing found but some operation's set-up failed. */
  exitCode: 0 | 1 | 2 | 3;
  result?: FuzzResult;
  reportFile?: string;
}

export async function fuzzCommand(settings: Settings, options: FuzzCommandOptions, log: (line: string) => void): Promise<FuzzOutcome> {
  const unknown = options.operations.filter((o) => !FUZZ_TARGET_IDS.includes(o));
  if (unknown.length > 0) {
    log(`conformance fuzz: unknown operation ${unknown.map((o) => `"${o}"`).join(', ')} (--operation); known: ${FUZZ_TARGET_IDS.join(', ')}`);
    return { exitCode: 2 };
  }
  // before anything is started or sent: a run whose findings cannot be kept never starts
  const badDir = probeReportDir(settings.run.reportDir);
  if (badDir) {
    log(`conformance fuzz: ${escapeForTerminal(badDir)}`);
    return { exitCode: 2 };
  }
  const startedAt = new Date();
  let embedded: EmbeddedTarget | undefined;
  try {
    if (!settings.target.baseUrl) embedded = await startEmbeddedTarget(settings.reference.faults as FaultName[]);
    const base = toProfile(settings, embedded);
    const profile: TargetProfile = options.runPrefix ? { ...base, runPrefix: options.runPrefix } : base;
    const faults = settings.reference.faults;
    const info = { baseUrl: profile.baseUrl, embeddedReference: embedded !== undefined, faults };
    log(`Target: ${embedded ? `embedded reference at ${profile.baseUrl}${faults.length ? ` with fault(s) ${faults.join(', ')}` : ''}` : escapeForTerminal(profile.baseUrl)}`);
    log(`Fuzz: seed ${options.seed}, ${options.timeS !== undefined ? `${options.timeS} s in all` : `${options.budget} generated requests per operation and mode`}, run prefix ${profile.runPrefix}`);
    // the same pre-flight as `conformance run`: unreachable, a refused key, a base URL that is not the API
    const checked = await preflight(profile, settings.run.transportRetries);
    for (const line of checked.ok ? checked.lines : []) log(escapeForTerminal(line));
    const why = checked.ok ? undefined : checked.reason;
    if (why) {
      log(`conformance fuzz: ${escapeForTerminal(why)}`);
      const result = emptyResult(options, profile.runPrefix, { reason: `pre-flight: ${why}`, operation: 'pre-flight' });
      log(`Report: ${writeFuzzReport(settings.run.reportDir, result, info, startedAt)}`);
      return { exitCode: 2, result };
    }
    const result = await runFuzz(profile, { seed: options.seed, budget: options.budget, ...timeBudget(options), operations: options.operations, log });
    result.findings.forEach((f, i) => log(['', ...describeFinding(f, i + 1, result.findings.length)].map(escapeForTerminal).join('\n')));
    for (const leak of result.leaks) log(escapeForTerminal(`LEAK: ${leak.label}: ${leak.error}`));
    const requests = result.operations.reduce((n, o) => n + requestsOf(o), 0);
    const errors = result.findings.filter((f) => f.level === 'error').length;
    const setupFailed = result.operations.filter((o) => o.setupFailed);
    log('');
    log(`Fuzzed ${result.operations.filter((o) => !o.skipped && !o.setupFailed).length} operation(s): ${requests} requests in ${(result.durationMs / 1000).toFixed(1)} s; ${result.findings.length} finding(s) (${errors} error(s), ${result.findings.length - errors} warning(s))`);
    for (const o of setupFailed) log(escapeForTerminal(`NOT FUZZED: ${o.operation}: its set-up failed on the target's answer: ${o.setupFailed}`));
    if (result.stopped) log(escapeForTerminal(`STOPPED during ${result.stopped.operation}${result.stopped.mode ? ` (${result.stopped.mode})` : ''}: ${result.stopped.reason}; what was found before is kept`));
    const reportFile = writeFuzzReport(settings.run.reportDir, result, info, startedAt);
    log(`Report: ${reportFile}`);
    const exitCode = result.stopped ? 2 : result.findings.length > 0 ? 1 : setupFailed.length > 0 ? 3 : 0;
    return { exitCode, result, reportFile };
  } finally {
    await closeTransport();
    await embedded?.reference.close();
  }
}

function emptyResult(options: FuzzCommandOptions, runPrefix: string, stopped: NonNullable<FuzzResult['stopped']>): FuzzResult {
  return { seed: options.seed, budget: options.budget, ...(options.timeS !== undefined ? { timeS: options.timeS } : {}), runPrefix, operations: [], findings: [], leaks: [], durationMs: 0, stopped };
}

// what is left after the run for its last cleanup, the findings and fuzz.json
const REPORTING_RESERVE_MS = 500;

/** `--time S` ends S seconds after the command started: start-up (loading, the embedded reference, the pre-flight) counts. */
function timeBudget(options: FuzzCommandOptions): { timeS?: number; deadlineMs?: number } {
  if (options.timeS === undefined) return {};
  const start = options.commandStartedMs ?? Date.now();
  return { timeS: options.timeS, deadlineMs: start + options.timeS * 1000 - REPORTING_RESERVE_MS };
}
