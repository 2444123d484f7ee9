// One whole conformance run: target (given or embedded) → pre-flight → suites → verdicts → conformance.json.
import type { FaultName } from '../../reference/index.ts';
import type { Settings } from '../config/settings.ts';
import { ApiClient, ExchangeFailed, redactorFor } from '../http/api-client.ts';
import { closeTransport } from '../http/transport.ts';
import { allureResultsDir } from '../report/allure-reporter.ts';
import { buildReport, type ConformanceReport } from '../report/conformance-report.ts';
import { writeReports } from '../report/write-reports.ts';
import { computeVerdicts } from '../report/verdicts.ts';
import type { TargetProfile } from '../target-profile.ts';
import { finalSweep } from './final-sweep.ts';
import { toProfile } from './profile.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from './embedded-target.ts';
import { runSuites } from './run-suites.ts';
import type { TestRecord } from './test-record.ts';

export interface RunIo {
  log: (line: string) => void;
  onRecord?: (record: TestRecord) => void;
}

export interface RunOutcome {
  report: ConformanceReport;
  reportFile: string;
  exitCode: 0 | 1 | 2;
}

export async function runConformance(settings: Settings, io: RunIo, files?: string[]): Promise<RunOutcome> {
  const startedAt = new Date();
  let embedded: EmbeddedTarget | undefined;
  try {
    if (!settings.target.baseUrl) embedded = await startEmbeddedTarget(settings.reference.faults as FaultName[]);
    const profile = toProfile(settings, embedded);
    io.log(describeTarget(profile, settings));
    const unreachable = await preflight(profile, io);
    // An unreachable target ends the run at once (exit 2), but still with a report that says why.
    const run = unreachable
      ? { records: [], errors: [unreachable] }
      : await runSuites(profile, { ...(files ? { files } : {}), ...(io.onRecord ? { onRecord: io.onRecord } : {}), deadlineMs: settings.timeouts.runMs, allureResultsDir: allureResultsDir(settings.run.reportDir) });
    const sweep = unreachable ? { removed: [], remaining: [] } : await finalSweep(profile, run.records.flatMap((r) => r.leaks.map((leak) => ({ test: r.name, leak }))));
    if (sweep.removed.length > 0) io.log(`Final sweep removed ${sweep.removed.length} leftover resource(s) carrying the run prefix ${profile.runPrefix}`);
    for (const leak of sweep.remaining) io.log(`LEAK: ${leak}`);
    const requirements = computeVerdicts(run.records, settings.features);
    const report = buildReport({
      target: {
        baseUrl: profile.baseUrl,
        ...(profile.regionalBaseUrl ? { regionalBaseUrl: profile.regionalBaseUrl } : {}),
        embeddedReference: profile.embeddedReference,
        faults: settings.reference.faults,
      },
      startedAt,
      finishedAt: new Date(),
      requirements,
      leaks: sweep.remaining,
      errors: run.errors,
    });
    const reportFile = writeReports(settings.run.reportDir, report, run.records, redactorFor(profile)).conformanceJson;
    return { report, reportFile, exitCode: unreachable ? 2 : report.summary.verdict === 'conformant' ? 0 : 1 };
  } finally {
    await closeTransport();
    await embedded?.reference.close();
  }
}

function describeTarget(profile: TargetProfile, settings: Settings): string {
  if (!profile.embeddedReference) return `Target: ${profile.baseUrl}`;
  const faults = settings.reference.faults.length > 0 ? ` with fault(s) ${settings.reference.faults.join(', ')}` : '';
  return `Target: embedded reference at ${profile.baseUrl}${faults}`;
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
