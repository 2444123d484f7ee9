// `conformance fuzz`: the target (given, or the embedded reference), a pre-flight, the fuzz run, reports/fuzz.json,
// every finding printed with its minimal request and reproducer. Exit 0 nothing found, 1 findings, 2 usage/unreachable.
import type { FaultName } from '../reference/index.ts';
import type { Settings } from '../config/settings.ts';
import { closeTransport } from '../harness/http/transport.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from '../harness/runner/embedded-target.ts';
import { toProfile } from '../harness/runner/profile.ts';
import { unreachable } from '../harness/runner/reachability.ts';
import type { TargetProfile } from '../harness/target-profile.ts';
import { describeFinding, writeFuzzReport } from './fuzz-report.ts';
import { runFuzz, TargetUnreachable, type FuzzResult } from './run-fuzz.ts';
import { FUZZ_TARGET_IDS } from './targets.ts';

export interface FuzzCommandOptions {
  seed: number;
  budget: number;
  timeS?: number;
  operations: string[];
  /** Fixes the run prefix (tests of reproducibility); normally a fresh one per run. */
  runPrefix?: string;
}

export interface FuzzOutcome {
  exitCode: 0 | 1 | 2;
  result?: FuzzResult;
  reportFile?: string;
}

export async function fuzzCommand(settings: Settings, options: FuzzCommandOptions, log: (line: string) => void): Promise<FuzzOutcome> {
  const unknown = options.operations.filter((o) => !FUZZ_TARGET_IDS.includes(o));
  if (unknown.length > 0) {
    log(`conformance fuzz: unknown operation ${unknown.map((o) => `"${o}"`).join(', ')} (--operation); known: ${FUZZ_TARGET_IDS.join(', ')}`);
    return { exitCode: 2 };
  }
  const startedAt = new Date();
  let embedded: EmbeddedTarget | undefined;
  try {
    if (!settings.target.baseUrl) embedded = await startEmbeddedTarget(settings.reference.faults as FaultName[]);
    const base = toProfile(settings, embedded);
    const profile: TargetProfile = options.runPrefix ? { ...base, runPrefix: options.runPrefix } : base;
    const faults = settings.reference.faults;
    log(`Target: ${embedded ? `embedded reference at ${profile.baseUrl}${faults.length ? ` with fault(s) ${faults.join(', ')}` : ''}` : profile.baseUrl}`);
    log(`Fuzz: seed ${options.seed}, ${options.timeS !== undefined ? `${options.timeS} s in all` : `${options.budget} generated requests per operation and mode`}, run prefix ${profile.runPrefix}`);
    const why = await unreachable(profile);
    if (why) {
      log(`conformance fuzz: target ${why}`);
      return { exitCode: 2 };
    }
    let result: FuzzResult;
    try {
      result = await runFuzz(profile, { seed: options.seed, budget: options.budget, ...(options.timeS !== undefined ? { timeS: options.timeS } : {}), operations: options.operations, log });
    } catch (error) {
      if (!(error instanceof TargetUnreachable)) throw error;
      log(`conformance fuzz: the target stopped answering: ${error.message}`);
      return { exitCode: 2 };
    }
    result.findings.forEach((f, i) => log(['', ...describeFinding(f, i + 1, result.findings.length)].join('\n')));
    for (const leak of result.leaks) log(`LEAK: ${leak.label}: ${leak.error}`);
    const requests = result.operations.reduce((n, o) => n + (o.valid?.requests ?? 0) + (o.invalid?.requests ?? 0), 0);
    const errors = result.findings.filter((f) => f.level === 'error').length;
    log('');
    log(`Fuzzed ${result.operations.filter((o) => !o.skipped).length} operation(s): ${requests} requests in ${(result.durationMs / 1000).toFixed(1)} s; ${result.findings.length} finding(s) (${errors} error(s), ${result.findings.length - errors} warning(s))`);
    const reportFile = writeFuzzReport(settings.run.reportDir, result, { baseUrl: profile.baseUrl, embeddedReference: embedded !== undefined, faults }, startedAt);
    log(`Report: ${reportFile}`);
    return { exitCode: result.findings.length > 0 ? 1 : 0, result, reportFile };
  } finally {
    await closeTransport();
    await embedded?.reference.close();
  }
}
