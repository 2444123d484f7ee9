// One conformance run: target (given or embedded) → pre-flight → suites (× --repeat) → final sweep → verdicts →
// expectations → certification → report artifacts. Exit codes: see verdictExitCode and README § exit codes.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultName } from '../../reference/index.ts';
import type { Settings } from '../../config/settings.ts';
import { compareWithExpectations, loadExpectations, type Expectations } from '../expectations/expectations.ts';
import { redactorFor } from '../../report/redactor.ts';
import { closeTransport } from '../http/transport.ts';
import { allureResultsDir } from '../../report/allure-report.ts';
import { assessCertification } from '../../certify/certification.ts';
import { buildReport, verdictExitCode, type ConformanceReport, type ExpectationOutcome } from '../../report/conformance-report.ts';
import { declaredConfiguration, describeDeclared } from '../../report/declared-configuration.ts';
import { computeVerdicts } from '../../report/verdicts.ts';
import { writeConfiguration, writeReports } from '../../report/write-reports.ts';
import type { TargetProfile } from '../target-profile.ts';
import { startRunContainer, stopRunContainer } from './container-run.ts';
import type { ContainerTarget } from './container-target.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from './embedded-target.ts';
import { finalSweep } from './final-sweep.ts';
import { preflight } from './preflight.ts';
import { probeReportDir } from '../../report/report-dir.ts';
import { ConfigError } from '../../config/config-error.ts';
import { interruptedSummary, interruptionError, leftoversOf, markCutOff, markNotReached } from './interrupted-run.ts';
import type { Interruption } from './interruption.ts';
import { toProfile } from './profile.ts';
import { SuiteSession, type SuiteRun } from './run-suites.ts';
import type { TestRecord } from '../../report/test-record.ts';

export interface RunIo {
  log: (line: string) => void;
  onRecord?: (record: TestRecord) => void;
  /** The first Ctrl-C: no test starts any more; the run sweeps, reports and exits 130. */
  interruption?: Interruption;
}

export interface RunOutcome {
  report: ConformanceReport;
  reportFile: string;
  exitCode: 0 | 1 | 2 | 3 | 130;
  expectations?: ExpectationOutcome;
  /** With --repeat: rules whose verdict was not the same in every run. */
  unstable: { id: string; verdicts: string[] }[];
}

export async function runConformance(settings: Settings, io: RunIo, files?: string[], env: Record<string, string | undefined> = {}): Promise<RunOutcome> {
  const startedAt = new Date();
  // Results that cannot be kept are not worth a run: the folder is made and written to before anything is sent.
  const folderProblem = probeReportDir(settings.run.reportDir, '');
  if (folderProblem) throw new ConfigError('--report-dir (run.reportDir, CONFORMANCE_REPORT_DIR)', folderProblem);
  let container: ContainerTarget | undefined;
  const expectations: Expectations | undefined = settings.run.expectations ? loadExpectations(settings.run.expectations) : undefined;
  let embedded: EmbeddedTarget | undefined;
  try {
    // A container that could not start (or was stopped while starting) is the reason the run could not run.
    let notStarted: string | undefined;
    if (settings.target.image) {
      const start = await startRunContainer(settings, env, io);
      settings = start.settings;
      if ('container' in start) container = start.container;
      else notStarted = start.failure;
    } else if (!settings.target.baseUrl) embedded = await startEmbeddedTarget(settings.reference.faults as FaultName[]);
    const profile = toProfile(settings, embedded, expectations?.skips);
    io.log(describeTarget(profile, settings));
    io.log(`Declared configuration: ${describeDeclared(declaredConfiguration(settings))}`);
    const checked = notStarted === undefined ? await preflight(profile, settings.run.transportRetries) : undefined;
    for (const line of checked?.ok ? checked.lines : []) io.log(line);
    // A set-up mistake, an unreachable target or a container that did not start: no test runs, the report says why (verdict `error`, exit 2).
    // what the target said goes into the reason: redacted like every exchange, since a target may echo the key
    const why = notStarted ?? (checked && !checked.ok ? checked.reason : undefined);
    const couldNotRun = why === undefined ? undefined : redactorFor(profile).text(why);
    const interruption = io.interruption;

    const runs: SuiteRun[] = [];
    if (couldNotRun) runs.push({ records: [], errors: [] });
    else {
      const session = await SuiteSession.open(profile, { allureResultsDir: allureResultsDir(settings.run.reportDir), workers: settings.run.workers });
      if (interruption) interruption.leftovers = () => leftoversOf(profile, session.running);
      try {
        for (let i = 1; i <= settings.run.repeat && !interruption?.requested; i++) {
          if (settings.run.repeat > 1) io.log(`Run ${i} of ${settings.run.repeat}`);
          // Every pass starts with full buckets: wait until those the previous pass exhausted have refilled.
          await waitUntil(runs.at(-1)?.bucketsFullAt, REFILL_WAIT_LIMIT_MS, interruption?.signal);
          const runProfile = i === 1 ? profile : { ...profile, runPrefix: `${profile.runPrefix}r${i}` };
          const run = await session.run(runProfile, {
            ...(files ? { files } : {}),
            ...(io.onRecord ? { onRecord: io.onRecord } : {}),
            ...(interruption ? { interrupt: interruption.signal } : {}),
            deadlineMs: settings.timeouts.runMs,
          });
          const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
          if (run.phases) io.log(`Functional suites ${s(run.phases.functionalMs)}, rate-limit suites ${s(run.phases.rateLimitMs)} (suite workers starting ${s(run.phases.startupMs)})`);
          runs.push(run);
        }
      } finally {
        // An abandoned run may keep vitest busy: closing it is bounded then, the process exits after the reports.
        await (interruption?.requested ? Promise.race([session.close(), new Promise((r) => setTimeout(r, 5_000))]) : session.close());
      }
    }
    const interrupted = interruption?.requested === true;
    if (interrupted && runs.length === 0) runs.push({ records: [], errors: [] });
    if (interrupted) runs.at(-1)!.errors.push(interruptionError(interruption!.cause, runs.at(-1)));
    const leaks = runs.flatMap((run) => run.records.flatMap((r) => r.leaks.map((leak) => ({ test: r.name, leak }))));
    const sweep = couldNotRun || profile.readOnly ? { removed: [], remaining: [] } : await finalSweep(profile, leaks);
    if (sweep.removed.length > 0) io.log(`Final sweep removed ${sweep.removed.length} leftover resource(s) carrying the run prefix ${profile.runPrefix}`);
    for (const leak of sweep.remaining) io.log(`LEAK: ${leak}`);
    if (interrupted) io.log(interruptedSummary(runs.at(-1)!, sweep, profile));
    // The container outlives the tests and the sweep, and goes before the reports: a Ctrl-C while it is removed is in them.
    const removalInterrupted = container ? await stopRunContainer(container, interruption, interrupted, runs) : false;
    container = undefined;

    const verdictsPerRun = runs.map((run) => computeVerdicts(run.records, settings.features, profile.skips, profile.rules));
    if (couldNotRun) verdictsPerRun[0] = verdictsPerRun[0]!.map((r) => (r.verdict === 'not-verified' ? { ...r, reason: 'the run could not run (summary.error)' } : r));
    if (interrupted) verdictsPerRun.push(markNotReached(verdictsPerRun.pop()!, interruption!.cause));
    const bound = runs.find((run) => run.reachedBound)?.reachedBound;
    if (bound) {
      io.log(`Stopped: ${bound}; the rules it cut off are not verified. Raise the bound to judge them.`);
      runs.forEach((run, i) => run.reachedBound && (verdictsPerRun[i] = markCutOff(verdictsPerRun[i]!, `${bound} before any test of this rule finished`)));
    }
    // A run cut short differs from the others by being cut short: only complete runs are compared.
    const complete = interrupted ? verdictsPerRun.slice(0, -1) : verdictsPerRun;
    const unstable = (complete[0] ?? [])
      .map((rule, index) => ({ id: rule.id, verdicts: complete.map((v) => v[index]!.verdict as string) }))
      .filter((rule) => new Set(rule.verdicts).size > 1);
    const report = buildReport({
      target: {
        baseUrl: profile.baseUrl,
        ...(profile.regionalBaseUrl ? { regionalBaseUrl: profile.regionalBaseUrl } : {}),
        embeddedReference: profile.embeddedReference,
        // why: the embedded reference is named as such already; a target of one's own answering as the reference is it too
        ...(checked?.ok && checked.identifiesAsReference !== undefined && !profile.embeddedReference ? { identifiesAsReference: checked.identifiesAsReference } : {}),
        faults: settings.reference.faults,
        declared: declaredConfiguration(settings),
      },
      startedAt,
      finishedAt: new Date(),
      requirements: verdictsPerRun.at(-1)!,
      leaks: sweep.remaining,
      errors: [...new Set(runs.flatMap((r) => r.errors))],
      strayTransportFaults: runs.flatMap((r) => r.strayTransportFaults ?? []),
      interrupted: interrupted || removalInterrupted,
      ...(couldNotRun ? { couldNotRun } : {}),
    });
    if (settings.run.repeat > 1) report.repeat = { runs: settings.run.repeat, unstable };
    const compared = expectations ? compareWithExpectations(report, expectations) : undefined;
    if (compared) report.expectations = compared;
    report.certification = assessCertification(report, settings.run);
    const reportFile = writeReports(settings.run.reportDir, report, redactorFor(profile)).conformanceJson;
    writeConfiguration(settings.run.reportDir, settings);

    // A baseline decides the exit on its own terms: known gaps exit 0, surprises 1 (the report keeps the honest verdict).
    const judged = compared ? (compared.unexpected.length === 0 && report.errors.length === 0 ? 0 : 1) : verdictExitCode(report, settings.run.loadFollows);
    const exitCode = interrupted || removalInterrupted ? 130 : couldNotRun ? 2 : unstable.length > 0 ? 1 : judged;
    return { report, reportFile, exitCode, unstable, ...(compared ? { expectations: compared } : {}) };
  } finally {
    await closeTransport();
    await embedded?.reference.close();
    await container?.stop();
  }
}

/** The longest wait for buckets to refill between passes of --repeat. */
const REFILL_WAIT_LIMIT_MS = 60_000;

/** Waits until `epochMs` (at most `limitMs`), cut short by a Ctrl-C. */
async function waitUntil(epochMs: number | undefined, limitMs: number, signal: AbortSignal | undefined): Promise<void> {
  const ms = Math.min(limitMs, (epochMs ?? 0) - Date.now());
  // an abort rejects the sleep: it only ends the wait
  if (ms > 0) await sleep(ms, undefined, signal ? { signal } : {}).catch(() => undefined);
}

function describeTarget(profile: TargetProfile, settings: Settings): string {
  const mode = [profile.readOnly ? ' (read-only: checks that change nothing)' : '', profile.noDrain ? ' (no drain: tests that exhaust a rate-limit bucket are not run)' : ''].join('');
  if (!profile.embeddedReference) return `Target: ${profile.baseUrl}${mode}`;
  const faults = settings.reference.faults.length > 0 ? ` with fault(s) ${settings.reference.faults.join(', ')}` : '';
  return `Target: embedded reference at ${profile.baseUrl}${faults}${mode}`;
}
