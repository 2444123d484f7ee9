// Against a reference started with the deployed limits (600/s, w=5: burst 3300), as an external target: the short
// profile sizes its over-limit phases from the declared burst, so the rules that need a spent burst are verified.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { loadCommand } from '../../cli/commands/load-command.ts';
import type { LoadRuleVerdict } from '../../load/verdict/judge.ts';
import { skipIfStarved } from './starved-run.ts';

const root = mkdtempSync(join(tmpdir(), 'load-deployed-'));
let reference: RunningReference;
beforeAll(async () => {
  reference = await startReference({ regional: false });
});
afterAll(async () => {
  await reference.close();
  rmSync(root, { recursive: true, force: true });
});

describe('short profile against the deployed limits', () => {
  test('trigger-limit and category-isolation spend the 3300 burst: RL-04, RL-05 convergence and RL-06 pass', async ({ skip }) => {
    const lines: string[] = [];
    const code = await loadCommand(
      { target: reference.baseUrl, apiKey: reference.apiKeys.dev, scenarios: ['trigger-limit', 'category-isolation'], engine: 'node', rateLimitRps: 600, reportDir: root, allowRemoteLoad: false, profile: 'short' },
      { log: (s) => lines.push(s) },
    );
    const out = lines.join('\n');
    expect(out).toMatch(/declared: trigger "3000;w=5;burst=3300/);
    expect(out).toMatch(/trigger-limit: over-limit 6\.0 s → 16\.2 s for the declared burst/);
    expect(out).toMatch(/category-isolation: trigger-exhausted 5\.0 s → 16\.2 s for the declared burst/);
    const doc = JSON.parse(readFileSync(join(root, 'load.json'), 'utf8')) as { verdicts: LoadRuleVerdict[] };
    skipIfStarved(Object.fromEntries(doc.verdicts.map((v) => [v.id, v])), ['RL-04', 'RL-05', 'RL-06'], skip);
    for (const id of ['RL-04', 'RL-05', 'RL-06']) expect(out, out).toMatch(new RegExp(`^${id} MUST pass$`, 'm'));
    expect(out).not.toMatch(/not-verified: .*converges/);
    expect(code).toBe(0);
  });
});
