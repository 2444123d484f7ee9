// `conformance load`: validates options, bounds and announces the run, starts the embedded reference when no
// target is given, runs the scenarios, writes DIR/load.json and merges RL verdicts into DIR/conformance.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startReference, isFaultName, type FaultName, type RunningReference } from '../reference/index.ts';
import { findK6 } from './k6/runner.ts';
import { mergeIntoReport } from './merge-into-report.ts';
import { runLoad } from './run-load.ts';
import { PROFILES, SCENARIO_NAMES, scenarioByName } from './scenarios/index.ts';
import { planScenario, type ScenarioPlan } from './scenarios/plan.ts';
import { isLoopbackUrl } from './target/loopback.ts';
import { ProvisioningError } from './target/fixture.ts';

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

export async function loadCommand(opts: LoadCommandOptions, io: { log(s: string): void }): Promise<number> {
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
  // why: with the node engine each scenario gets an embedded reference of its own and they all run at once (no refill pauses)
  const together = embedded && opts.engine === 'node' && plans.length > 1;
  const gaps = together ? 'scenarios at once, each against its own embedded reference' : `+ ≥ ${(profile.gapS * (plans.length - 1)).toFixed(1)} s refill pauses`;
  io.log(`Plan: ${plans.length} scenario(s), ${requests} requests over ${seconds.toFixed(1)} s of load (${gaps}), engine ${opts.engine}, profile ${opts.profile}, trigger limit ${expectedRps}/s`);
  for (const p of plans) io.log(`  ${p.scenario}: ${p.requestCount} requests, ${(p.durationMs / 1000).toFixed(1)} s (${p.phases.map((ph) => `${ph.name} ${(ph.durationMs / 1000).toFixed(1)} s`).join(', ')})`);
  if (requests > MAX_REQUESTS || seconds > MAX_DURATION_S) {
    return usage(`the plan exceeds the bounds (${MAX_REQUESTS} requests, ${MAX_DURATION_S} s): lower --duration or --rate-limit-rps`);
  }

  let references: RunningReference[] = [];
  const startedAt = new Date();
  try {
    if (embedded) {
      const own = together ? plans.length : 1;
      const options = {
        regional: false,
        faults: faults as FaultName[],
        rateLimits: { trigger: expectedRps },
        ...(profile.embedded.windowSeconds ? { rateLimitWindowSeconds: profile.embedded.windowSeconds } : {}),
      };
      references = await Promise.all(Array.from({ length: own }, () => startReference(options)));
      const where = together ? `${own} embedded references, one per scenario` : `embedded reference at ${references[0]!.baseUrl}`;
      io.log(`Target: ${where}${faults.length ? ` with faults ${faults.join(', ')}` : ''}`);
    } else io.log(`Target: ${opts.target}`);
    const baseUrl = references[0]?.baseUrl ?? opts.target!;
    const apiKey = references[0]?.apiKeys.dev ?? opts.apiKey!;
    const targetPerPlan = references.length > 1 ? references.map((r) => ({ baseUrl: r.baseUrl, apiKey: r.apiKeys.dev })) : undefined;
    mkdirSync(opts.reportDir, { recursive: true });
    const result = await runLoad({ baseUrl, apiKey, ...(targetPerPlan ? { targetPerPlan } : {}), engine: opts.engine, plans, expectedRps, gapS: profile.gapS, durationScale: scale, reportDir: opts.reportDir, log: io.log });
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
      timelines: result.timelines,
    };
    writeFileSync(file, `${JSON.stringify(doc)}\n`);
    for (const v of result.verdicts) {
      io.log(`${v.id} ${v.level} ${v.verdict}`);
      for (const t of v.tests) if (t.status !== 'passed') io.log(`  ${t.status}: ${t.name}\n    ${t.message ?? ''}`);
    }
    if (result.leaks.length > 0) io.log(`Could not remove: ${result.leaks.join('; ')}`);
    io.log(`Load report: ${file}`);
    const merged = mergeIntoReport(opts.reportDir, result.verdicts);
    if (merged) io.log(`Merged RL verdicts into ${merged}`);
    return result.verdicts.some((v) => v.verdict === 'fail') ? 1 : 0;
  } catch (error) {
    if (error instanceof ProvisioningError) return usage(`could not set up the load fixture: ${error.message}`);
    const e = error as { code?: string; cause?: { code?: string } };
    if ((e.code ?? e.cause?.code) === 'ECONNREFUSED') return usage(`the target ${opts.target} is unreachable (connection refused)`);
    throw error;
  } finally {
    await Promise.all(references.map((r) => r.close()));
  }
}
