// `conformance load`: validates options, bounds and announces the run, starts the embedded reference when no
// target is given, runs the scenarios, writes DIR/load.json and merges RL verdicts into DIR/conformance.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startReference, isFaultName, type FaultName, type RunningReference } from '../../reference/index.ts';
import { findK6 } from '../../load/k6/runner.ts';
import { verdictExitCode, type ConformanceReport } from '../../report/conformance-report.ts';
import { mergeIntoReport } from '../../load/merge-into-report.ts';
import { runLoad } from '../../load/run-load.ts';
import { PROFILES, SCENARIO_NAMES, scenarioByName } from '../../load/scenarios/index.ts';
import { planScenario, type ScenarioPlan } from '../../load/scenarios/plan.ts';
import { isLoopbackUrl } from '../../load/target/loopback.ts';
import { ProvisioningError } from '../../load/target/fixture.ts';
import type { Timeline } from '../../load/timeline/format.ts';

export interface LoadCommandOptions {
  target?: string;
  apiKey?: string;
  scenarios: string[];
  engine: 'node' | 'k6';
  rateLimitRps: number;
  /** Total scenario time; phases are scaled to fit. */
  durationS?: number;
  reportDir: string;
  allowRemoteLoad: boolean;
  profile: 'short' | 'full';
  /** Embedded reference only: deliberate faults to switch on. */
  faults?: string[];
}

export const LOAD_FORMAT = 'notification-api-conformance/load';
/** Hard bounds whatever the options say. */
export const MAX_REQUESTS = 500_000;
export const MAX_DURATION_S = 15 * 60;

export interface LoadIo {
  log(s: string): void;
  /** A Ctrl-C: the running scenario stops and is judged as far as it went; the command exits 130. */
  signal?: AbortSignal;
  /** Told what the run created on the target as soon as it exists. */
  onFixture?(created: string[]): void;
}

/** What `conformance load` exits with when a Ctrl-C cut it short (after cleaning up and reporting). */
export const LOAD_INTERRUPTED = 130;

export async function loadCommand(opts: LoadCommandOptions, io: LoadIo): Promise<number> {
  const usage = (msg: string) => {
    io.log(`conformance load: ${msg}`);
    return 2;
  };
  const names = opts.scenarios.length > 0 ? opts.scenarios : SCENARIO_NAMES;
  const unknown = names.filter((n) => !scenarioByName(n));
  if (unknown.length > 0) return usage(`unknown scenario ${unknown.map((n) => `"${n}"`).join(', ')} (--scenario): known are ${SCENARIO_NAMES.join(', ')}`);
  if (!Number.isFinite(opts.rateLimitRps) || opts.rateLimitRps <= 0) return usage(`--rate-limit-rps must be a positive number, got ${opts.rateLimitRps}`);
  if (opts.durationS !== undefined && !(opts.durationS > 0)) return usage(`--duration must be a positive number of seconds, got ${opts.durationS}`);
  const faults = opts.faults ?? [];
  const badFault = faults.find((f) => !isFaultName(f));
  if (badFault) return usage(`unknown fault "${badFault}" (--fault)`);
  if (opts.target !== undefined) {
    let url: URL;
    try {
      url = new URL(opts.target);
    } catch {
      return usage(`--target "${opts.target}" is not a URL`);
    }
    if (!isLoopbackUrl(url) && !opts.allowRemoteLoad) {
      return usage(`refusing to send load to ${url.origin}, which is not this machine: pass --allow-remote-load if you own that service and mean it`);
    }
    if (!opts.apiKey) return usage('--api-key (or CONFORMANCE_API_KEY) is required with --target');
    if (faults.length > 0) return usage('--fault applies to the embedded reference only (drop --target)');
  }
  if (opts.engine === 'k6' && !findK6()) return usage('--engine k6: no `k6` executable on PATH. Install k6 ≥ 0.57 (https://grafana.com/docs/k6/latest/set-up/install-k6/) or use --engine node');

  const profile = PROFILES[opts.profile];
  const embedded = opts.target === undefined;
  // why: the short profile's embedded reference runs a lower limit so the burst drains in seconds; that limit is then the documented one
  const expectedRps = embedded ? (profile.embedded.triggerRps ?? opts.rateLimitRps) : opts.rateLimitRps;
  const defaults = names.map((n) => planScenario(scenarioByName(n)!, opts.profile, expectedRps));
  const defaultS = defaults.reduce((s, p) => s + p.durationMs, 0) / 1000;
  const scale = opts.durationS !== undefined ? opts.durationS / defaultS : 1;
  const plans: ScenarioPlan[] = names.map((n) => planScenario(scenarioByName(n)!, opts.profile, expectedRps, scale));
  const requests = plans.reduce((s, p) => s + p.requestCount, 0);
  const seconds = plans.reduce((s, p) => s + p.durationMs, 0) / 1000;
  const gaps = profile.gapS * (plans.length - 1);
  io.log(`Plan: ${plans.length} scenario(s), ${requests} requests over ${seconds.toFixed(1)} s of load (+ ≥ ${gaps.toFixed(1)} s refill pauses), engine ${opts.engine}, profile ${opts.profile}, trigger limit ${expectedRps}/s`);
  for (const p of plans) io.log(`  ${p.scenario}: ${p.requestCount} requests, ${(p.durationMs / 1000).toFixed(1)} s (${p.phases.map((ph) => `${ph.name} ${(ph.durationMs / 1000).toFixed(1)} s`).join(', ')})`);
  if (requests > MAX_REQUESTS || seconds > MAX_DURATION_S) {
    return usage(`the plan exceeds the bounds (${MAX_REQUESTS} requests, ${MAX_DURATION_S} s): lower --duration or --rate-limit-rps`);
  }

  let reference: RunningReference | undefined;
  const startedAt = new Date();
  try {
    if (embedded) {
      reference = await startReference({
        regional: false,
        faults: faults as FaultName[],
        rateLimits: { trigger: expectedRps },
        ...(profile.embedded.windowSeconds ? { rateLimitWindowSeconds: profile.embedded.windowSeconds } : {}),
      });
      io.log(`Target: embedded reference at ${reference.baseUrl}${faults.length ? ` with faults ${faults.join(', ')}` : ''}`);
    } else io.log(`Target: ${opts.target}`);
    const baseUrl = reference?.baseUrl ?? opts.target!;
    const apiKey = reference?.apiKeys.dev ?? opts.apiKey!;
    mkdirSync(opts.reportDir, { recursive: true });
    const result = await runLoad({
      ...{ baseUrl, apiKey, engine: opts.engine, plans, expectedRps, gapS: profile.gapS, durationScale: scale, reportDir: opts.reportDir, log: io.log },
      ...(io.signal ? { signal: io.signal } : {}),
      ...(io.onFixture ? { onFixture: io.onFixture } : {}),
    });
    const interrupted = io.signal?.aborted ? interruptionOf(String(io.signal.reason), result.timelines, result.notRun) : undefined;
    const file = join(opts.reportDir, 'load.json');
    const doc = {
      format: LOAD_FORMAT,
      formatVersion: 1,
      engine: opts.engine,
      profile: opts.profile,
      target: { baseUrl, embeddedReference: embedded, faults },
      expectedRps,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      verdicts: result.verdicts,
      leaks: result.leaks,
      ...(interrupted ? { interrupted } : {}),
      timelines: result.timelines,
    };
    writeFileSync(file, `${JSON.stringify(doc)}\n`);
    for (const v of result.verdicts) {
      io.log(`${v.id} ${v.level} ${v.verdict}`);
      for (const t of v.tests) if (t.status !== 'passed') io.log(`  ${t.status}: ${t.name}\n    ${t.message ?? ''}`);
    }
    if (result.leaks.length > 0) io.log(`Could not remove: ${result.leaks.join('; ')}`);
    else if (interrupted) io.log('The load fixture (workflow and subscribers) was removed.');
    if (interrupted) for (const line of describeInterruption(interrupted)) io.log(line);
    io.log(`Load report: ${file}`);
    const merged = mergeIntoReport(opts.reportDir, result.verdicts);
    const loadFailed = result.verdicts.some((v) => v.verdict === 'fail');
    if (merged) io.log(`Merged RL verdicts into ${merged.file}: the run is now ${merged.report.summary.verdict}${describeUnverified(merged.report)}`);
    if (interrupted) return LOAD_INTERRUPTED;
    if (!merged) return loadFailed ? 1 : 0;
    // why: merging completes (or not) the run it joins, so the exit says what that run now is; a baseline run keeps its own exit
    return loadFailed ? 1 : merged.report.expectations ? 0 : verdictExitCode(merged.report);
  } catch (error) {
    if (error instanceof ProvisioningError) return usage(`could not set up the load fixture: ${error.message}`);
    const e = error as { code?: string; cause?: { code?: string } };
    if ((e.code ?? e.cause?.code) === 'ECONNREFUSED') return usage(`the target ${opts.target} is unreachable (connection refused)`);
    throw error;
  } finally {
    await reference?.close();
  }
}

function describeUnverified(report: ConformanceReport): string {
  const ids = report.summary.unverifiedMust.map((r) => r.id);
  if (ids.length === 0) return '';
  return ` (${ids.length} MUST rule(s) not verified: ${ids.slice(0, 8).join(', ')}${ids.length > 8 ? ', …' : ''})`;
}

interface LoadInterruption {
  signal: string;
  /** Scenarios cut short: when, and the phases that were therefore not judged. */
  cut: { scenario: string; atMs: number; phasesNotJudged: string[] }[];
  notRun: string[];
}

function interruptionOf(signal: string, timelines: Timeline[], notRun: string[]): LoadInterruption {
  const cut = timelines.flatMap((tl) => (tl.interrupted ? [{ scenario: tl.scenario, atMs: Math.round(tl.interrupted.atMs), phasesNotJudged: tl.interrupted.phases.map((p) => p.name) }] : []));
  return { signal, cut, notRun };
}

function describeInterruption(i: LoadInterruption): string[] {
  return [
    `INTERRUPTED (${i.signal}): the verdicts above judge the timeline only as far as it went.`,
    ...i.cut.map((c) => `  ${c.scenario} stopped at ${(c.atMs / 1000).toFixed(1)} s; phase(s) not judged: ${c.phasesNotJudged.join(', ') || 'none'}`),
    ...(i.notRun.length > 0 ? [`  not run: ${i.notRun.join(', ')}`] : []),
  ];
}
