// Against the embedded reference with the short profile (200/s, w=1): clean passes; each rate-limit fault fails its rule.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadCommand } from '../../cli/commands/load-command.ts';
import type { LoadRuleVerdict } from '../../load/verdict/judge.ts';
import { skipIfStarved } from './starved-run.ts';

const root = mkdtempSync(join(tmpdir(), 'load-ref-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function load(name: string, scenarios: string[], faults: string[] = [], oneAtATime = false): Promise<{ code: number; verdicts: Record<string, LoadRuleVerdict>; out: string }> {
  const reportDir = join(root, name);
  const lines: string[] = [];
  const code = await loadCommand({ scenarios, engine: 'node', rateLimitRps: 600, reportDir, allowRemoteLoad: false, profile: 'short', faults, ...(oneAtATime ? { oneAtATime } : {}) }, { log: (s) => lines.push(s) });
  const doc = JSON.parse(readFileSync(join(reportDir, 'load.json'), 'utf8')) as { verdicts: LoadRuleVerdict[] };
  return { code, verdicts: Object.fromEntries(doc.verdicts.map((v) => [v.id, v])), out: lines.join('\n') };
}

const summary = (v: LoadRuleVerdict | undefined) => v?.tests.map((t) => `${t.status}: ${t.name} — ${t.message ?? ''}`).join('\n');

describe('load against the embedded reference (short profile)', () => {
  test('the clean reference passes RL-03, RL-04, RL-05, RL-06 and RL-08', async ({ skip }) => {
    const r = await load('clean', ['trigger-limit', 'bulk-cost', 'category-isolation']);
    expect(r.out).toMatch(/^Plan: 3 scenario\(s\), 3850 requests over 19\.5 s/);
    skipIfStarved(r.verdicts, ['RL-05', 'RL-06', 'RL-08'], skip);
    for (const id of ['RL-03', 'RL-04', 'RL-05', 'RL-06', 'RL-08']) expect(`${id} ${r.verdicts[id]?.verdict}`, summary(r.verdicts[id])).toBe(`${id} pass`);
    expect(r.code).toBe(0);
  });

  test('--one-at-a-time: one embedded reference, the scenarios one after another with a refill pause, none run again', async ({ skip }) => {
    const r = await load('one-at-a-time', ['bulk-cost', 'trigger-under-limit'], [], true);
    expect(r.out).toMatch(/^Plan: 2 scenario\(s\), .* \(one at a time, \+ ≥ 1\.5 s refill pauses\)/m);
    expect(r.out).toMatch(/^Target: embedded reference at http:\/\/127\.0\.0\.1:\d+$/m);
    expect(r.out).toMatch(/bulk-cost: \d+ requests over [\d.]+ s …[\s\S]*trigger-under-limit: \d+ requests over [\d.]+ s …/);
    expect(r.out).not.toMatch(/starved running at once/);
    skipIfStarved(r.verdicts, ['RL-03', 'RL-08'], skip);
    for (const id of ['RL-03', 'RL-08']) expect(`${id} ${r.verdicts[id]?.verdict}`, summary(r.verdicts[id])).toBe(`${id} pass`);
  });

  // why: concurrent, since each fault only needs one short scenario and its failure margin is wide
  describe.concurrent('faults', () => {
    test.for([
      { fault: 'limit-too-generous', scenarios: ['trigger-limit'], rule: 'RL-05' },
      { fault: 'limit-too-strict', scenarios: ['trigger-limit'], rule: 'RL-05' },
      { fault: 'no-retry-after', scenarios: ['category-isolation'], rule: 'RL-04' },
      { fault: 'remaining-not-decremented', scenarios: ['bulk-cost'], rule: 'RL-03' },
    ])('$fault fails $rule', async ({ fault, scenarios, rule }, { skip }) => {
      const r = await load(fault, scenarios, [fault]);
      skipIfStarved(r.verdicts, [rule], skip, true);
      expect(`${rule} ${r.verdicts[rule]?.verdict}`, summary(r.verdicts[rule])).toBe(`${rule} fail`);
      expect(r.code).toBe(1);
    });
  });
});
