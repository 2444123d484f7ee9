// What `conformance load` prints: which trigger limit is judged and why (once), each declaration of the target once,
// and a line every few seconds while a scenario runs.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { judgedLimitLine, loadCommand } from '../../cli/commands/load-command.ts';
import { progressEvery } from '../../load/run-load.ts';
import { SUITE_VERSION } from '../../report/suite-info.ts';
import { planScenario } from '../../load/scenarios/plan.ts';
import { scenarioByName } from '../../load/scenarios/index.ts';

const root = mkdtempSync(join(tmpdir(), 'load-output-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('load output', () => {
  it('says once which trigger limit is judged and why, and each declaration of the targets once', async () => {
    const lines: string[] = [];
    const code = await loadCommand({ scenarios: ['bulk-cost', 'trigger-under-limit'], engine: 'node', rateLimitRps: 600, reportDir: join(root, 'r'), allowRemoteLoad: false, profile: 'short', durationS: 2 }, { log: (s) => lines.push(s) });
    // a busy machine may leave RL-05 not verified (exit 3): what is printed is under test, not the verdict
    expect(code, lines.join('\n')).not.toBe(2);
    expect(lines.filter((l) => l.startsWith('Judged at: '))).toEqual([
      'Judged at: trigger limit 200/s (RL-05), the short profile starts the embedded reference at this limit, so its burst drains in seconds; a RateLimit-Policy the target declares only sizes the phases (its burst), never the limit judged',
    ]);
    // two embedded references, one per scenario, declare the same buckets: one line
    expect(lines.filter((l) => l.startsWith('  declared: '))).toHaveLength(1);
    // the built-in engine is the suite's own code: its version is the suite's, in the plan line, load.json and each timeline
    expect(lines.find((l) => l.startsWith('Plan: '))).toContain(`engine node ${SUITE_VERSION}, profile short`);
    const load = JSON.parse(readFileSync(join(root, 'r', 'load.json'), 'utf8'));
    expect([load.engine, load.engineVersion]).toEqual(['node', SUITE_VERSION]);
    expect(load.timelines.map((t: { engineVersion?: string }) => t.engineVersion)).toEqual([SUITE_VERSION, SUITE_VERSION]);
  });

  it('names the source of a given target\'s limit', () => {
    const base = { embedded: false, shortEmbedded: false, fromReport: false, explicit: false, reportDir: 'reports' };
    expect(judgedLimitLine(300, { ...base, explicit: true })).toContain('trigger limit 300/s (RL-05), declared with --rate-limit-rps, limits.triggerRps of the settings or CONFORMANCE_TRIGGER_RPS;');
    expect(judgedLimitLine(300, { ...base, fromReport: true })).toContain('the limit `conformance run` declared for this target (reports/conformance.json)');
    expect(judgedLimitLine(600, base)).toContain("the spec's figure; a target on another plan declares its own");
  });

  it('prints a line every 5 s while a scenario runs, naming its phase, and stops with it', () => {
    vi.useFakeTimers();
    try {
      const lines: string[] = [];
      const plan = planScenario(scenarioByName('trigger-limit')!, 'full', 600);
      const progress = progressEvery(5, plan, (s) => lines.push(s));
      vi.advanceTimersByTime(12_000);
      progress.stop();
      vi.advanceTimersByTime(20_000);
      expect(lines).toEqual([`    … trigger-limit 5 s of ${(plan.durationMs / 1000).toFixed(1)} s (${plan.phases[0]!.name} phase)`, `    … trigger-limit 10 s of ${(plan.durationMs / 1000).toFixed(1)} s (${plan.phases.find((p) => p.startMs <= 10_000 && 10_000 < p.startMs + p.durationMs)!.name} phase)`]);
    } finally {
      vi.useRealTimers();
    }
  });
});
