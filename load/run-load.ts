// Runs planned scenarios one after another on one engine, with a refill pause between them, and judges them.
// Given a target of its own per scenario (embedded references), the scenarios run at once instead: no bucket is shared.
import { join } from 'node:path';
import { parseRateLimitPolicy } from '../harness/checks/rate-limit-policy.ts';
import { findK6, runScenarioK6 } from './k6/runner.ts';
import { runScenarioNode } from './engine/run-scenario.ts';
import type { ScenarioPlan } from './scenarios/plan.ts';
import type { Timeline } from './timeline/format.ts';
import { provisionFixture } from './target/fixture.ts';
import { judgeTimelines, type LoadRuleVerdict } from './verdict/judge.ts';

export interface LoadRunInput {
  baseUrl: string;
  apiKey: string;
  /** One target per plan, each with buckets of its own: the plans run at once, without refill pauses. */
  targetPerPlan?: { baseUrl: string; apiKey: string }[];
  engine: 'node' | 'k6';
  plans: ScenarioPlan[];
  expectedRps: number;
  gapS: number;
  durationScale: number;
  reportDir: string;
  log(s: string): void;
}

export interface LoadRunResult {
  timelines: Timeline[];
  verdicts: LoadRuleVerdict[];
  leaks: string[];
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
  const runs = input.targetPerPlan
    ? await Promise.all(input.plans.map((plan, i) => runInTurn({ ...input, ...input.targetPerPlan![i]!, plans: [plan] })))
    : [await runInTurn(input)];
  const timelines = runs.flatMap((r) => r.timelines);
  return { timelines, verdicts: judgeTimelines(timelines, input.expectedRps), leaks: runs.flatMap((r) => r.leaks) };
}

async function runInTurn(input: LoadRunInput): Promise<Omit<LoadRunResult, 'verdicts'>> {
  const k6 = input.engine === 'k6' ? findK6() : undefined;
  const fixture = await provisionFixture(input.baseUrl, input.apiKey);
  const timelines: Timeline[] = [];
  let leaks: string[] = [];
  try {
    for (const plan of input.plans) {
      const previous = timelines.at(-1);
      if (previous) await new Promise((r) => setTimeout(r, refillSeconds(previous, input.gapS) * 1000));
      input.log(`  ${plan.scenario}: ${plan.requestCount} requests over ${(plan.durationMs / 1000).toFixed(1)} s …`);
      const target = { baseUrl: input.baseUrl, apiKey: input.apiKey };
      const tl = k6
        ? await runScenarioK6(k6, plan, target, fixture, join(input.reportDir, `load-timeline-${plan.scenario}.json`), input.durationScale)
        : await runScenarioNode(plan, target, fixture);
      timelines.push(tl);
      const statuses = Object.entries(tl.routes).map(([route, r]) => `${route} ${JSON.stringify(r.statuses)}${r.dropped ? ` dropped ${r.dropped}` : ''}${r.errors ? ` errors ${r.errors}` : ''}`);
      input.log(`    ${statuses.join('; ')}`);
    }
  } finally {
    leaks = await fixture.cleanup();
  }
  return { timelines, leaks };
}
