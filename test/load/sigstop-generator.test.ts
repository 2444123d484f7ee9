// The real thing: `conformance load` as a child process against a correct reference in this process, its generator
// stopped (SIGSTOP) for 1.5 s inside each scenario's over-limit phase. The intervals it missed are not-verified with
// the lag as the reason: no rule fails, RL-05 and RL-06 are not pass, the run is incomplete (exit 3).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.ts';
import type { LoadRuleVerdict } from '../../load/verdict/judge.ts';
import { notAsPlanned } from '../../load/verdict/generator-lag.ts';
import { SILENCE_BOUND_MS } from '../hostile/run-cli.ts';

const CLI = fileURLToPath(new URL('../../bin/conformance.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'load-sigstop-'));
let reference: RunningReference;
beforeAll(async () => {
  // the short profile's limits, as an external target: the generator runs in the child, the target here
  reference = await startReference({ regional: false, rateLimits: { trigger: 200 }, rateLimitWindowSeconds: 1 });
});
afterAll(async () => {
  await reference.close();
  rmSync(root, { recursive: true, force: true });
});

/** Runs the load; `N requests over` of each scenario starts a timer that stops the child 2 s into it, for 1.5 s (the first `maxStops`). */
function loadWithStops(args: string[], maxStops = Infinity): Promise<{ code: number | null; out: string; stops: number }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONFORMANCE_') && !k.startsWith('VITEST')));
  const child = spawn(process.execPath, [CLI, 'load', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let stops = 0;
  const timers: NodeJS.Timeout[] = [];
  child.stdout.on('data', (d: Buffer) => {
    const before = (out.match(/requests over [\d.]+ s …/g) ?? []).length;
    out += d.toString();
    const after = (out.match(/requests over [\d.]+ s …/g) ?? []).length;
    for (let i = before; i < Math.min(after, maxStops); i++) {
      timers.push(setTimeout(() => {
        if (child.exitCode !== null || !child.kill('SIGSTOP')) return;
        stops += 1;
        timers.push(setTimeout(() => child.kill('SIGCONT'), 1500));
      }, 2000));
    }
  });
  // a bound on silence, as runCli's: the load prints a line every 5 s while it runs
  let killer = setTimeout(() => child.kill('SIGKILL'), SILENCE_BOUND_MS);
  const alive = () => {
    clearTimeout(killer);
    killer = setTimeout(() => child.kill('SIGKILL'), SILENCE_BOUND_MS);
  };
  child.stdout.on('data', alive);
  child.stderr.on('data', (d: Buffer) => ((out += d.toString()), alive()));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(killer);
      for (const t of timers) clearTimeout(t);
      resolve({ code, out, stops });
    });
  });
}

describe('a generator stopped by SIGSTOP gives no load verdict', () => {
  test('trigger-limit and category-isolation, each stopped 1.5 s in its over-limit phase: not-verified naming the lag, never fail', async () => {
    const reportDir = join(root, 'stopped');
    const r = await loadWithStops(['--profile', 'short', '--target', reference.baseUrl, '--api-key', reference.apiKeys.dev, '--rate-limit-rps', '200',
      '--scenario', 'trigger-limit', '--scenario', 'category-isolation', '--report-dir', reportDir]);
    expect(r.stops, r.out).toBe(2);
    expect(r.out).not.toMatch(/MUST fail|SHOULD warn/);
    const verdicts = Object.fromEntries((JSON.parse(readFileSync(join(reportDir, 'load.json'), 'utf8')) as { verdicts: LoadRuleVerdict[] }).verdicts.map((v) => [v.id, v]));
    for (const id of ['RL-05', 'RL-06']) {
      expect(`${id} ${verdicts[id]?.verdict}`, r.out).toBe(`${id} not-verified`);
      expect(verdicts[id]!.tests.some((t) => t.status === 'not-verified' && notAsPlanned(t.message)), JSON.stringify(verdicts[id]!.tests.map((t) => t.message))).toBe(true);
    }
    expect(r.code).toBe(3);
  });

  test('embedded references at once, stopped 1.5 s: each starved scenario runs again alone, and nothing fails', async () => {
    const reportDir = join(root, 'at-once');
    const r = await loadWithStops(['--profile', 'short', '--scenario', 'trigger-limit', '--scenario', 'category-isolation', '--report-dir', reportDir], 1);
    expect(r.stops, r.out).toBe(1);
    expect(r.out).toMatch(/^Plan: 2 scenario\(s\), .*scenarios at once, each against its own embedded reference; a starved one runs again alone/m);
    expect(r.out).toMatch(/^ {2}(trigger-limit, category-isolation|trigger-limit|category-isolation): starved running at once \(.*\); running (them|it) again one at a time$/m);
    expect(r.out).not.toMatch(/MUST fail|SHOULD warn/);
    expect([0, 3]).toContain(r.code);
  });
});
