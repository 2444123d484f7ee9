// One conformance run: target (given or embedded) → pre-flight → suites (× --repeat) → final sweep → verdicts →
// expectations → report artifacts. Exit 0 conformant (or as expected), 1 otherwise, 2 when the target is unreachable.
import type { FaultName } from '../../reference/index.ts';
import type { Settings } from '../config/settings.ts';
import { compareWithExpectations, loadExpectations, type ExpectationOutcome, type Expectations } from '../expectations/expectations.ts';
import { ApiClient, ExchangeFailed, redactorFor } from '../http/api-client.ts';
import { closeTransport } from '../http/transport.ts';
import { allureResultsDir } from '../report/allure-reporter.ts';
import { buildReport, type ConformanceReport } from '../report/conformance-report.ts';
import { computeVerdicts } from '../report/verdicts.ts';
import { writeReports } from '../report/write-reports.ts';
import type { TargetProfile } from '../target-profile.ts';
import { startContainerTarget, type ContainerSettings, type ContainerTarget } from './container-target.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from './embedded-target.ts';
import { finalSweep } from './final-sweep.ts';
import { toProfile } from './profile.ts';
import { SuiteSession, type SuiteRun } from './run-suites.ts';
import type { TestRecord } from './test-record.ts';

export interface RunIo {
  log: (line: string) => void;
  onRecord?: (record: TestRecord) => void;
}

export interface RunOutcome {
  report: ConformanceReport;
  reportFile: string;
  exitCode: 0 | 1 | 2;
  expectations?: ExpectationOutcome;
  /** With --repeat: rules whose verdict was not the same in every run. */
  unstable: { id: string; verdicts: string[] }[];
}

export async function runConformance(settings: Settings, io: RunIo, files?: string[], env: Record<string, string | undefined> = {}): Promise<RunOutcome> {
  const startedAt = new Date();
  let container: ContainerTarget | undefined;
  const expectations: Expectations | undefined = settings.run.expectations ? loadExpectations(settings.run.expectations) : undefined;
  let embedded: EmbeddedTarget | undefined;
  try {
    if (settings.target.image) {
      io.log(`Starting ${settings.target.image} with testcontainers …`);
      container = await startContainerTarget(containerSettings(settings), env);
      settings = { ...settings, target: { ...settings.target, baseUrl: container.baseUrl } };
    } else if (!settings.target.baseUrl) embedded = await startEmbeddedTarget(settings.reference.faults as FaultName[]);
    const profile = toProfile(settings, embedded, expectations?.skips);
    io.log(describeTarget(profile, settings));
    const unreachable = await preflight(profile, io);

    const runs: SuiteRun[] = [];
    if (unreachable) runs.push({ records: [], errors: [unreachable] });
    else {
      const session = await SuiteSession.open(profile, { allureResultsDir: allureResultsDir(settings.run.reportDir) });
      try {
        for (let i = 1; i <= settings.run.repeat; i++) {
          if (settings.run.repeat > 1) io.log(`Run ${i} of ${settings.run.repeat}`);
          // Every pass starts with full buckets: wait until those the previous pass exhausted have refilled.
          await waitUntil(runs.at(-1)?.bucketsFullAt, REFILL_WAIT_LIMIT_MS);
          const runProfile = i === 1 ? profile : { ...profile, runPrefix: `${profile.runPrefix}r${i}` };
          const run = await session.run(runProfile, { ...(files ? { files } : {}), ...(io.onRecord ? { onRecord: io.onRecord } : {}), deadlineMs: settings.timeouts.runMs });
          const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
          if (run.phases) io.log(`Functional suites ${s(run.phases.functionalMs)}, rate-limit suites ${s(run.phases.rateLimitMs)} (suite workers starting ${s(run.phases.startupMs)})`);
          runs.push(run);
        }
      } finally {
        await session.close();
      }
    }
    const last = runs.at(-1)!;
    const leaks = runs.flatMap((run) => run.records.flatMap((r) => r.leaks.map((leak) => ({ test: r.name, leak }))));
    const sweep = unreachable || profile.readOnly ? { removed: [], remaining: [] } : await finalSweep(profile, leaks);
    if (sweep.removed.length > 0) io.log(`Final sweep removed ${sweep.removed.length} leftover resource(s) carrying the run prefix ${profile.runPrefix}`);
    for (const leak of sweep.remaining) io.log(`LEAK: ${leak}`);

    const verdictsPerRun = runs.map((run) => computeVerdicts(run.records, settings.features, profile.skips));
    const unstable = verdictsPerRun[0]!
      .map((rule, index) => ({ id: rule.id, verdicts: verdictsPerRun.map((v) => v[index]!.verdict as string) }))
      .filter((rule) => new Set(rule.verdicts).size > 1);
    const report = buildReport({
      target: {
        baseUrl: profile.baseUrl,
        ...(profile.regionalBaseUrl ? { regionalBaseUrl: profile.regionalBaseUrl } : {}),
        embeddedReference: profile.embeddedReference,
        faults: settings.reference.faults,
      },
      startedAt,
      finishedAt: new Date(),
      requirements: verdictsPerRun.at(-1)!,
      leaks: sweep.remaining,
      errors: [...new Set(runs.flatMap((r) => r.errors))],
    });
    if (settings.run.repeat > 1) report.repeat = { runs: settings.run.repeat, unstable };
    const compared = expectations ? compareWithExpectations(report, expectations) : undefined;
    if (compared) report.expectations = compared;
    const reportFile = writeReports(settings.run.reportDir, report, last.records, redactorFor(profile)).conformanceJson;

    const passed = compared ? compared.unexpected.length === 0 && report.errors.length === 0 : report.summary.verdict === 'conformant';
    const exitCode = unreachable ? 2 : passed && unstable.length === 0 ? 0 : 1;
    return { report, reportFile, exitCode, unstable, ...(compared ? { expectations: compared } : {}) };
  } finally {
    await closeTransport();
    await embedded?.reference.close();
    await container?.stop();
  }
}

/** The longest wait for buckets to refill between passes of --repeat. */
const REFILL_WAIT_LIMIT_MS = 60_000;

async function waitUntil(epochMs: number | undefined, limitMs: number): Promise<void> {
  const ms = Math.min(limitMs, (epochMs ?? 0) - Date.now());
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}

function containerSettings(settings: Settings): ContainerSettings {
  const { target, timeouts } = settings;
  return { image: target.image!, port: target.imagePort ?? 3000, env: target.imageEnv ?? {}, waitPath: target.waitPath ?? '/v1/environments', startupTimeoutMs: Math.min(timeouts.runMs, 120_000) };
}

function describeTarget(profile: TargetProfile, settings: Settings): string {
  const mode = profile.readOnly ? ' (read-only: checks that change nothing)' : '';
  if (!profile.embeddedReference) return `Target: ${profile.baseUrl}${mode}`;
  const faults = settings.reference.faults.length > 0 ? ` with fault(s) ${settings.reference.faults.join(', ')}` : '';
  return `Target: embedded reference at ${profile.baseUrl}${faults}${mode}`;
}

/**
 * One read-only request before anything else: is the target there, and whose key is this?
 * Returns why the target is unreachable, or undefined when it answered at all.
 */
async function preflight(profile: TargetProfile, io: RunIo): Promise<string | undefined> {
  const api = new ApiClient({ ...profile, timeouts: { ...profile.timeouts, requestMs: Math.min(profile.timeouts.requestMs, 5_000) } });
  try {
    const res = await api.get('/v1/environments');
    if (res.status !== 200 || !Array.isArray(res.data)) {
      io.log(`Pre-flight: GET /v1/environments answered ${res.status}; continuing (the suites will report what fails)`);
      return undefined;
    }
    const environments = res.data as { name?: string; _organizationId?: string; apiKeys?: unknown[] }[];
    const own = environments.find((e) => Array.isArray(e.apiKeys) && e.apiKeys.length > 0);
    io.log(`Pre-flight: organization ${environments[0]?._organizationId ?? '?'}, environment ${own?.name ?? '(not identifiable from the key)'}`);
    return undefined;
  } catch (error) {
    // An oversized body is still an answer: the suites will say what is wrong with it.
    if (error instanceof ExchangeFailed && error.exchange.errorKind !== 'too-large') return `target unreachable (pre-flight): ${error.message}`;
    if (error instanceof ExchangeFailed) return undefined;
    throw error;
  }
}
