// `conformance load`: validates options, bounds and announces the run, starts the embedded reference when no
// target is given, runs the scenarios, writes DIR/load.json and merges RL verdicts into DIR/conformance.json.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startReference, isFaultName, type FaultName, type RunningReference } from '../../reference/index.ts';
import { checkK6, K6RunError } from '../../load/k6/runner.ts';
import { judgeRecordedTimelines } from '../../load/from-timelines.ts';
import { interruptionOf, reportLoad } from '../../load/load-report.ts';
import { runLoad } from '../../load/run-load.ts';
import { PROFILES, SCENARIO_NAMES, scenarioByName } from '../../load/scenarios/index.ts';
import type { DeclaredLimits } from '../../load/scenarios/declared-limits.ts';
import { planScenario, type ScenarioPlan } from '../../load/scenarios/plan.ts';
import { isLoopbackUrl } from '../../load/target/loopback.ts';
import { useNetworkForProcess } from '../../config/network-dispatcher.ts';
import type { NetworkSettings } from '../../config/settings.ts';
import { ProvisioningError } from '../../load/target/fixture.ts';
import { describeTarget, loadTargetMismatch, reportTargetFacts, type TargetFacts } from '../../report/load-target.ts';
import { SUITE_VERSION } from '../../report/suite-info.ts';

export interface LoadCommandOptions {
  target?: string;
  apiKey?: string;
  /** Proxies, CA, client certificate and headers on the way to a given target (never to the embedded reference). */
  network?: NetworkSettings;
  scenarios: string[];
  engine: 'node' | 'k6';
  rateLimitRps: number;
  /** rateLimitRps was given (flag, settings file or environment), not left to its default: a report's limit does not replace it. */
  explicitRateLimit?: boolean;
  /** Total scenario time; phases are scaled to fit. */
  durationS?: number;
  reportDir: string;
  allowRemoteLoad: boolean;
  profile: 'short' | 'full';
  /** Embedded reference only: deliberate faults to switch on. */
  faults?: string[];
  /** Judge these recorded timelines (the instances of a split k6 run are merged) instead of sending load. */
  fromTimelines?: string[];
  /** Embedded reference: run the scenarios one after another, not at once (a busy machine starves them side by side). */
  oneAtATime?: boolean;
}

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

class BoundsError extends Error {}

function beyondBounds(plans: ScenarioPlan[]): boolean {
  return plans.reduce((s, p) => s + p.requestCount, 0) > MAX_REQUESTS || plans.reduce((s, p) => s + p.durationMs, 0) / 1000 > MAX_DURATION_S;
}

/** The target of DIR/conformance.json, when a run left one there. */
function reportOf(dir: string): { facts?: TargetFacts } | { error: string } {
  const file = join(dir, 'conformance.json');
  if (!existsSync(file)) return {};
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { summary?: { verdict?: string; error?: string } };
    // a run that could not run judged nothing: load verdicts merged into it would make a report about a target nobody reached
    if (parsed.summary?.verdict === 'error') return { error: `${file} is a run that could not run (${String(parsed.summary.error ?? '').slice(0, 300)}): fix that and run \`conformance run\` again before the load run (--report-dir)` };
    return { facts: reportTargetFacts(parsed) };
  } catch (error) {
    return { error: `${file} is not a report of \`conformance run\` (${(error as Error).message.slice(0, 200)}): the load would be merged into it (--report-dir)` };
  }
}

export async function loadCommand(opts: LoadCommandOptions, io: LoadIo): Promise<number> {
  const usage = (msg: string) => {
    io.log(`conformance load: ${msg}`);
    return 2;
  };
  if (opts.fromTimelines?.length) {
    if (opts.target !== undefined) return usage('--from-timelines judges recorded timelines and sends nothing: drop --target');
    return judgeRecordedTimelines(opts.fromTimelines, opts.reportDir, io);
  }
  const report = reportOf(opts.reportDir);
  if ('error' in report) return usage(report.error);
  // why: one target per report: without a target of its own, the load measures the one the report is about
  let limitFromReport = false;
  if (report.facts && opts.target === undefined && (opts.faults ?? []).length === 0) {
    const r = report.facts;
    if (!r.embeddedReference && r.baseUrl !== undefined) {
      limitFromReport = !opts.explicitRateLimit && r.triggerRps !== undefined;
      opts = { ...opts, target: r.baseUrl, ...(limitFromReport ? { rateLimitRps: r.triggerRps! } : {}) };
    } else if (r.embeddedReference && r.faults?.length) opts = { ...opts, faults: r.faults };
    io.log(`Target: from ${join(opts.reportDir, 'conformance.json')}: ${describeTarget({ ...r, ...(opts.target ? { triggerRps: opts.rateLimitRps } : {}) })}`);
  }
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
  const k6 = opts.engine === 'k6' ? await checkK6() : undefined;
  if (k6 && 'error' in k6) return usage(`--engine k6: ${k6.error}`);

  const profile = PROFILES[opts.profile];
  const embedded = opts.target === undefined;
  // the embedded reference listens on this machine: a corporate proxy is not on its way
  if (!embedded) useNetworkForProcess(opts.network);
  // why: the short profile's embedded reference runs a lower limit so the burst drains in seconds; that limit is then the documented one
  const expectedRps = embedded ? (profile.embedded.triggerRps ?? opts.rateLimitRps) : opts.rateLimitRps;
  if (report.facts) {
    const mismatch = loadTargetMismatch(report.facts, { embeddedReference: embedded, faults, ...(embedded ? {} : { baseUrl: opts.target!, triggerRps: expectedRps }) });
    if (mismatch) return usage(`${mismatch}: nothing was sent and nothing merged into ${join(opts.reportDir, 'conformance.json')} (one target per report: drop --target/--fault/--rate-limit-rps to measure the report's target, or give another --report-dir)`);
  }
  const defaults = names.map((n) => planScenario(scenarioByName(n)!, opts.profile, expectedRps));
  const defaultS = defaults.reduce((s, p) => s + p.durationMs, 0) / 1000;
  const scale = opts.durationS !== undefined ? opts.durationS / defaultS : 1;
  const planAll = (declared?: DeclaredLimits) => names.map((n) => planScenario(scenarioByName(n)!, opts.profile, expectedRps, scale, declared));
  const plans: ScenarioPlan[] = planAll();
  const requests = plans.reduce((s, p) => s + p.requestCount, 0);
  const seconds = plans.reduce((s, p) => s + p.durationMs, 0) / 1000;
  // why: with the node engine each scenario gets an embedded reference of its own and they all run at once (no refill pauses)
  const together = embedded && opts.engine === 'node' && plans.length > 1 && !opts.oneAtATime;
  const gaps = together ? 'scenarios at once, each against its own embedded reference; a starved one runs again alone' : `one at a time, + ≥ ${(profile.gapS * (plans.length - 1)).toFixed(1)} s refill pauses`;
  // why: the built-in engine is the suite's own code; k6's is what `k6 version` printed
  const engineVersion = k6 ? k6.version : SUITE_VERSION;
  io.log(`Plan: ${plans.length} scenario(s), ${requests} requests over ${seconds.toFixed(1)} s of load (${gaps}), engine ${opts.engine} ${engineVersion}, profile ${opts.profile}, trigger limit ${expectedRps}/s`);
  io.log(judgedLimitLine(expectedRps, { embedded, shortEmbedded: embedded && profile.embedded.triggerRps !== undefined, fromReport: limitFromReport, explicit: opts.explicitRateLimit === true, reportDir: opts.reportDir }));
  for (const p of plans) io.log(`  ${p.scenario}: ${p.requestCount} requests, ${(p.durationMs / 1000).toFixed(1)} s (${p.phases.map((ph) => `${ph.name} ${(ph.durationMs / 1000).toFixed(1)} s`).join(', ')})`);
  if (beyondBounds(plans)) return usage(`the plan exceeds the bounds (${MAX_REQUESTS} requests, ${MAX_DURATION_S} s): lower --duration or --rate-limit-rps`);
  // why: phases lengthened for a declared burst must stay inside the same bounds
  const fitPlans = (declared: DeclaredLimits) => {
    const fitted = planAll(declared);
    if (beyondBounds(fitted)) throw new BoundsError(`the phases the target's declared bursts need exceed the bounds (${MAX_REQUESTS} requests, ${MAX_DURATION_S} s): run fewer scenarios at a time`);
    return fitted;
  };

  let references: RunningReference[] = [];
  const startedAt = new Date();
  try {
    if (embedded) {
      const options = {
        regional: false,
        faults: faults as FaultName[],
        rateLimits: { trigger: expectedRps },
        ...(profile.embedded.windowSeconds ? { rateLimitWindowSeconds: profile.embedded.windowSeconds } : {}),
      };
      references = await Promise.all(Array.from({ length: together ? plans.length : 1 }, () => startReference(options)));
      const where = together ? `${references.length} embedded references, one per scenario` : `embedded reference at ${references[0]!.baseUrl}`;
      io.log(`Target: ${where}${faults.length ? ` with faults ${faults.join(', ')}` : ''}`);
    } else io.log(`Target: ${opts.target}`);
    const baseUrl = references[0]?.baseUrl ?? opts.target!;
    const apiKey = references[0]?.apiKeys.dev ?? opts.apiKey!;
    const targetPerPlan = references.length > 1 ? references.map((r) => ({ baseUrl: r.baseUrl, apiKey: r.apiKeys.dev })) : undefined;
    mkdirSync(opts.reportDir, { recursive: true });
    // why: a run that ends without a verdict must not leave an earlier run's load.json to be read as its own
    rmSync(join(opts.reportDir, 'load.json'), { force: true });
    const result = await runLoad({
      ...{ baseUrl, apiKey, ...(targetPerPlan ? { targetPerPlan, retryStarvedAlone: true } : {}), engine: opts.engine, ...(k6 ? { k6: k6.k6, k6Version: k6.version } : {}), plans, fitPlans, expectedRps, gapS: profile.gapS, reportDir: opts.reportDir, log: io.log },
      ...(io.signal ? { signal: io.signal } : {}),
      ...(io.onFixture ? { onFixture: io.onFixture } : {}),
    });
    const interrupted = io.signal?.aborted ? interruptionOf(String(io.signal.reason), result.timelines, result.notRun) : undefined;
    return reportLoad(opts.reportDir, {
      engine: opts.engine,
      engineVersion,
      profile: opts.profile,
      target: { baseUrl, embeddedReference: embedded, faults },
      expectedRps,
      startedAt: startedAt.toISOString(),
      verdicts: result.verdicts,
      leaks: result.leaks,
      ...(interrupted ? { interrupted } : {}),
      timelines: result.timelines,
    }, io, [apiKey, opts.apiKey, ...references.map((r) => r.apiKeys.dev)]);
  } catch (error) {
    if (error instanceof ProvisioningError) return usage(`could not set up the load fixture: ${error.message}`);
    if (error instanceof K6RunError || error instanceof BoundsError) return usage(error.message);
    const e = error as { code?: string; cause?: { code?: string } };
    if ((e.code ?? e.cause?.code) === 'ECONNREFUSED') return usage(`the target ${opts.target} is unreachable (connection refused)`);
    throw error;
  } finally {
    await Promise.all(references.map((r) => r.close()));
  }
}

/** The one trigger limit RL-05 is judged at, and why that one: a run names several figures (documented, declared, planned). */
export function judgedLimitLine(rps: number, why: { embedded: boolean; shortEmbedded: boolean; fromReport: boolean; explicit: boolean; reportDir: string }): string {
  const reason = why.shortEmbedded
    ? 'the short profile starts the embedded reference at this limit, so its burst drains in seconds'
    : why.fromReport
      ? `the limit \`conformance run\` declared for this target (${join(why.reportDir, 'conformance.json')})`
      : why.explicit
        ? 'declared with --rate-limit-rps, limits.triggerRps of the settings or CONFORMANCE_TRIGGER_RPS'
        : why.embedded
          ? "the spec's figure, which the embedded reference runs"
          : "the spec's figure; a target on another plan declares its own with --rate-limit-rps or limits.triggerRps";
  return `Judged at: trigger limit ${rps}/s (RL-05), ${reason}; a RateLimit-Policy the target declares only sizes the phases (its burst), never the limit judged`;
}
