// Runs planned scenarios one after another on one engine, with a refill pause between them, and judges them.
// Given a target of its own per scenario (embedded references), the scenarios run at once instead: no bucket is shared;
// a scenario starved by running beside the others runs again alone.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseRateLimitPolicy } from '../schemas/rate-limit-policy.ts';
import { runScenarioK6 } from './k6/runner.ts';
import { runScenarioNode } from './engine/run-scenario.ts';
import type { DeclaredLimits } from './scenarios/declared-limits.ts';
import type { ScenarioPlan } from './scenarios/plan.ts';
import type { Timeline } from './timeline/format.ts';
import { provisionFixture } from './target/fixture.ts';
import { probeDeclaredLimits } from './target/probe-limits.ts';
import { judgeTimelines, starvedReason, type LoadRuleVerdict } from './verdict/judge.ts';

export interface LoadRunInput {
  baseUrl: string;
  apiKey: string;
  /** One target per plan, each with buckets of its own: the plans run at once, without refill pauses. */
  targetPerPlan?: { baseUrl: string; apiKey: string }[];
  /** With targetPerPlan: a scenario whose run at once was starved (generator behind, answers late) runs again alone. */
  retryStarvedAlone?: boolean;
  engine: 'node' | 'k6';
  /** The k6 binary (checked by the caller) when engine is k6. */
  k6?: string;
  /** Its version, as `k6 version` printed it: each timeline it writes is stamped with it. */
  k6Version?: string;
  plans: ScenarioPlan[];
  /** The plans again for what the target declares (its bursts decide how long over-limit phases last). */
  fitPlans?: (declared: DeclaredLimits) => ScenarioPlan[];
  expectedRps: number;
  gapS: number;
  reportDir: string;
  log(s: string): void;
  /** A Ctrl-C: the running scenario stops (judged as far as it went), the next ones do not start. */
  signal?: AbortSignal;
  /** Told what the run created on the target as soon as it exists (for a second Ctrl-C to name). */
  onFixture?(created: string[]): void;
}

export interface LoadRunResult {
  timelines: Timeline[];
  verdicts: LoadRuleVerdict[];
  leaks: string[];
  /** Scenarios that did not start because the run was interrupted. */
  notRun: string[];
}

/** Refill pause: the profile's gap, or burst/rate of any policy seen (≤ 30 s), whichever is longer. */
export function refillSeconds(timeline: Timeline | undefined, gapS: number): number {
  let s = gapS;
  for (const r of Object.values(timeline?.routes ?? {})) {
    for (const header of r.policies) {
      const p = parseRateLimitPolicy(header);
      if (p.ok && p.policy.limit > 0) s = Math.max(s, Math.min(30, (p.policy.burst * p.policy.w) / p.policy.limit + 0.5));
    }
  }
  return s;
}

export async function runLoad(input: LoadRunInput): Promise<LoadRunResult> {
  if (input.engine === 'k6' && !input.k6) throw new Error('runLoad: engine k6 without a k6 binary');
  // why: scenarios run at once against identical embedded references probe the same declarations: each is said once
  const said = new Set<string>();
  const once = { ...input, log: (line: string) => (line.startsWith('  declared: ') && said.has(line) ? undefined : (said.add(line), input.log(line))) };
  const runs = input.targetPerPlan
    ? await Promise.all(input.plans.map((plan, i) => runInTurn({ ...once, ...input.targetPerPlan![i]!, plans: [plan] })))
    : [await runInTurn(once)];
  if (input.targetPerPlan && input.retryStarvedAlone) await retryStarved(once, runs);
  const timelines = runs.flatMap((r) => r.timelines);
  return { timelines, verdicts: judgeTimelines(timelines, input.expectedRps), leaks: runs.flatMap((r) => r.leaks), notRun: runs.flatMap((r) => r.notRun) };
}

/**
 * Scenarios run at once share this process's CPU with their embedded references: on a busy machine some starve. Each
 * starved one runs again alone, one after another, against its own reference once its buckets refilled; its new
 * timeline replaces the starved one (whatever it shows: one retry, then the verdict says what was measured).
 */
async function retryStarved(input: LoadRunInput, runs: Omit<LoadRunResult, 'verdicts'>[]): Promise<void> {
  const starved = runs.flatMap((run, i) => {
    const tl = run.timelines[0];
    const why = tl && !tl.interrupted ? starvedReason(tl, input.expectedRps) : undefined;
    return why ? [{ i, why }] : [];
  });
  if (starved.length === 0 || input.signal?.aborted) return;
  input.log(`  ${starved.map(({ i }) => input.plans[i]!.scenario).join(', ')}: starved running at once (${starved[0]!.why.slice(0, 160)}…); running ${starved.length === 1 ? 'it' : 'them'} again one at a time`);
  for (const { i } of starved) {
    if (input.signal?.aborted) break;
    await sleep(refillSeconds(runs[i]!.timelines[0], input.gapS) * 1000, undefined, input.signal ? { signal: input.signal } : {}).catch(() => undefined);
    if (input.signal?.aborted) break;
    const again = await runInTurn({ ...input, ...input.targetPerPlan![i]!, plans: [input.plans[i]!] });
    runs[i] = { ...again, leaks: [...runs[i]!.leaks, ...again.leaks] };
  }
}

async function runInTurn(input: LoadRunInput): Promise<Omit<LoadRunResult, 'verdicts'>> {
  const fixture = await provisionFixture(input.baseUrl, input.apiKey);
  input.onFixture?.([`workflow ${fixture.workflowId}`, `subscribers ${fixture.subscriberId} and ${fixture.bulkSubscriberId}`]);
  const timelines: Timeline[] = [];
  const notRun: string[] = [];
  let leaks: string[] = [];
  let finished = false;
  try {
    let plans = input.plans;
    if (input.fitPlans) {
      const probed = await probeDeclaredLimits(input.baseUrl, input.apiKey, fixture);
      // why: a run of some of the plans (one per target) fits only its own
      plans = input.fitPlans(probed.declared).filter((fitted) => input.plans.some((p) => p.scenario === fitted.scenario));
      input.log(`  declared: ${Object.entries(probed.policies).map(([c, p]) => `${c} "${p}"`).join(', ') || 'no RateLimit-Policy'}`);
      for (const line of fittedPhases(input.plans, plans)) input.log(`  ${line}`);
    }
    for (const plan of plans) {
      const previous = timelines.at(-1);
      if (previous && !input.signal?.aborted) await sleep(refillSeconds(previous, input.gapS) * 1000, undefined, input.signal ? { signal: input.signal } : {}).catch(() => undefined); // a Ctrl-C ends the refill pause
      if (input.signal?.aborted) {
        notRun.push(plan.scenario);
        continue;
      }
      input.log(`  ${plan.scenario}: ${plan.requestCount} requests over ${(plan.durationMs / 1000).toFixed(1)} s …`);
      const target = { baseUrl: input.baseUrl, apiKey: input.apiKey };
      const progress = progressEvery(PROGRESS_S, plan, input.log);
      const tl = await (input.k6
        ? runScenarioK6(input.k6, plan, target, fixture, join(input.reportDir, `load-timeline-${plan.scenario}.json`), input.signal)
        : runScenarioNode(plan, target, fixture, input.signal ? { signal: input.signal } : {})
      ).finally(progress.stop);
      if (input.k6 && input.k6Version) tl.engineVersion = input.k6Version;
      timelines.push(tl);
      const statuses = Object.entries(tl.routes).map(([route, r]) => `${route} ${JSON.stringify(r.statuses)}${r.dropped ? ` dropped ${r.dropped}` : ''}${r.errors ? ` errors ${r.errors}` : ''}`);
      input.log(`    ${statuses.join('; ')}`);
    }
    finished = true;
  } finally {
    leaks = await fixture.cleanup();
    // why: a run that throws returns no result, so what it left behind is said here
    if (!finished && leaks.length > 0) input.log(`Could not remove: ${leaks.join('; ')}`);
  }
  return { timelines, leaks, notRun };
}

/** A scenario of tens of seconds is not silent: a line every few seconds says how far it is. */
const PROGRESS_S = 5;

export function progressEvery(seconds: number, plan: ScenarioPlan, log: (line: string) => void): { stop(): void } {
  const started = Date.now();
  const total = plan.durationMs / 1000;
  const timer = setInterval(() => {
    const at = (Date.now() - started) / 1000;
    const phase = phaseAt(plan, at * 1000);
    log(`    … ${plan.scenario} ${at.toFixed(0)} s of ${total.toFixed(1)} s${phase ? ` (${phase})` : ' (waiting for the last answers)'}`);
  }, seconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

function phaseAt(plan: ScenarioPlan, ms: number): string | undefined {
  let end = 0;
  for (const phase of plan.phases) {
    end += phase.durationMs;
    if (ms < end) return `${phase.name} phase`;
  }
  return undefined;
}

/** One line per phase the target's declared limits lengthened. */
function fittedPhases(before: ScenarioPlan[], after: ScenarioPlan[]): string[] {
  const lines: string[] = [];
  after.forEach((plan, i) => {
    plan.phases.forEach((phase, j) => {
      const was = before[i]?.phases[j]?.durationMs;
      if (was !== undefined && was !== phase.durationMs) lines.push(`${plan.scenario}: ${phase.name} ${(was / 1000).toFixed(1)} s → ${(phase.durationMs / 1000).toFixed(1)} s for the declared burst`);
    });
  });
  return lines;
}
