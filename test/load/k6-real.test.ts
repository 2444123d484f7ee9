// With a real k6 ≥ 0.57 on PATH (CI has none: these skip, saying so): the documented direct run, the CLI's k6
// engine, and one test split by k6 across two processes (--execution-segment) merged into one verdict.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { loadCommand } from '../../cli/commands/load-command.ts';
import { checkK6, K6_SCRIPT } from '../../load/k6/runner.ts';
import type { LoadRuleVerdict } from '../../load/verdict/judge.ts';

const found = await checkK6();
const k6 = 'k6' in found ? found.k6 : undefined;
const why = 'error' in found ? ` (skipped: ${found.error.split('. ')[0]})` : '';
const root = mkdtempSync(join(tmpdir(), 'k6-real-'));
let reference: RunningReference;

beforeAll(async () => {
  if (k6) reference = await startReference({ regional: false, rateLimits: { trigger: 200 }, rateLimitWindowSeconds: 1 });
});
afterAll(async () => {
  await reference?.close();
  rmSync(root, { recursive: true, force: true });
});

/** The environment a user sets for a direct `k6 run` of the short category-isolation scenario against the reference. */
const directEnv = () => ({
  ...process.env,
  CONFORMANCE_TARGET: reference.baseUrl,
  CONFORMANCE_API_KEY: reference.apiKeys.dev,
  LOAD_SCENARIO: 'category-isolation',
  LOAD_PROFILE: 'short',
  LOAD_LIMIT_RPS: '200',
  LOAD_POLICY_TRIGGER: '200;w=1;burst=220',
});

function k6Run(args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(k6!, args, { env, cwd });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const freePort = () => new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  });
});

async function judged(opts: { engine: 'node' | 'k6'; reportDir: string; fromTimelines?: string[] }): Promise<{ code: number; out: string; verdicts: Record<string, string> }> {
  const lines: string[] = [];
  const code = await loadCommand({ scenarios: ['category-isolation'], rateLimitRps: 600, allowRemoteLoad: false, profile: 'short', ...opts }, { log: (s) => lines.push(s) });
  const verdicts = Object.fromEntries(lines.map((l) => /^(RL-\d\d) \w+ (\S+)$/.exec(l)).filter((m) => m !== null).map((m) => [m[1]!, m[2]!]));
  return { code, out: lines.join('\n'), verdicts };
}

describe.skipIf(!k6)(`a real k6${why}`, () => {
  test('the documented direct run works from a fresh checkout: the timeline lands in the working directory', async () => {
    const cwd = join(root, 'fresh');
    mkdirSync(cwd);
    const r = await k6Run(['run', '--quiet', '--address=', K6_SCRIPT], directEnv(), cwd);
    // why: 99 is a k6 threshold crossed (say, dropped iterations on a busy machine); the timeline is written either way
    expect([0, 99], r.out).toContain(r.code);
    expect(readdirSync(cwd)).toEqual(['load-timeline-category-isolation.json']);
    expect(r.out).toMatch(/^timeline: load-timeline-category-isolation\.json$/m);
  });

  test('an output directory that does not exist stops the run before any load, saying so', async () => {
    const r = await k6Run(['run', '--quiet', '--address=', K6_SCRIPT], { ...directEnv(), LOAD_TIMELINE_OUT: join(root, 'no-such-dir', 'tl.json') }, root);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/LOAD_TIMELINE_OUT: the directory .*no-such-dir.* does not exist/);
    expect(r.out).not.toMatch(/^timeline:/m);
  });

  test('one test split across two k6 processes merges into the verdict one instance gives', async () => {
    const single = await judged({ engine: 'k6', reportDir: join(root, 'single') });
    expect(single.verdicts, single.out).toMatchObject({ 'RL-04': 'pass', 'RL-05': 'pass', 'RL-06': 'pass' });
    const out = join(root, 'split') + '/';
    mkdirSync(out);
    // why: k6 splits; both start paused and are resumed together, as the k6-operator does
    const ports = [await freePort(), await freePort()];
    const runs = ['0:1/2', '1/2:1'].map((segment, i) =>
      k6Run(['run', '--quiet', '--paused', `--address=127.0.0.1:${ports[i]}`, '--execution-segment', segment, '--execution-segment-sequence', '0,1/2,1', K6_SCRIPT], { ...directEnv(), LOAD_TIMELINE_OUT: out }, root));
    await new Promise((r) => setTimeout(r, 4000));
    for (const port of ports) expect((await k6Run(['resume', `--address=127.0.0.1:${port}`], process.env, root)).code).toBe(0);
    for (const r of await Promise.all(runs)) expect(r.code, r.out).toBe(0);
    const files = readdirSync(out).sort().map((f) => join(out, f));
    expect(files.map((f) => f.slice(out.length))).toEqual(['load-timeline-category-isolation-0_1_2.json', 'load-timeline-category-isolation-1_2_1.json']);
    const merged = await judged({ engine: 'k6', reportDir: join(root, 'merged'), fromTimelines: files });
    expect(merged.out).toMatch(/merged from segments 0:1\/2, 1\/2:1/);
    expect(merged.verdicts, merged.out).toEqual(single.verdicts);
    expect(existsSync(join(root, 'merged', 'load.json'))).toBe(true);
  });
});
