// The real thing: `conformance load` as a child process against a correct reference in this process, its generator
// (the CLI itself, or the k6 processes it starts where a k6 is on PATH) stopped (SIGSTOP) for 1.5 s inside each
// scenario's over-limit phase. The intervals it missed are not-verified with the lag as the reason: no rule fails,
// RL-05 and RL-06 are not pass, the run is incomplete (exit 3).
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.ts';
import type { LoadRuleVerdict } from '../../load/verdict/judge.ts';
import { notAsPlanned } from '../../load/verdict/generator-lag.ts';
import { checkK6 } from '../../load/k6/runner.ts';
import { killWhenSilent } from '../hostile/run-cli.ts';

const CLI = fileURLToPath(new URL('../../bin/conformance.js', import.meta.url));
type Engine = 'node' | 'k6';
const ENGINES: Engine[] = ['node', 'k6'];
const foundK6 = await checkK6();
const k6 = 'k6' in foundK6;
const k6Missing = 'error' in foundK6 ? foundK6.error.split('. ')[0] : '';
const root = mkdtempSync(join(tmpdir(), 'load-sigstop-'));
let reference: RunningReference;
let relay: Relay;
beforeAll(async () => {
  // the short profile's limits, as an external target: the generator runs in the child, the target here
  reference = await startReference({ regional: false, rateLimits: { trigger: 200 }, rateLimitWindowSeconds: 1 });
  relay = await relayTo(new URL(reference.baseUrl));
});
afterAll(async () => {
  await relay.close();
  await reference.close();
  rmSync(root, { recursive: true, force: true });
});

interface Relay {
  url: string;
  /** Called whenever a trigger request passes on its way to the target. */
  onTrigger: () => void;
  close(): Promise<void>;
}

/**
 * A TCP relay in front of the reference that sees triggers pass: a stop is timed from the load's first trigger, not
 * from the CLI's "N requests over" line, because k6 starts seconds after that line on a busy machine (a stop before
 * its load begins stops nothing).
 */
async function relayTo(target: URL): Promise<Relay> {
  const relay: Relay = { url: '', onTrigger: () => {}, close: async () => {} };
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
    client.on('data', (chunk: Buffer) => {
      if (chunk.includes('POST /v1/events/trigger')) relay.onTrigger();
    });
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  relay.close = () => new Promise((resolve) => {
    server.close(() => resolve());
    for (const socket of sockets) socket.destroy();
  });
  return relay;
}

/** The processes that send the load: the CLI itself with the built-in engine, or the k6 processes it started. */
function generators(child: ChildProcess, engine: Engine): number[] {
  if (engine === 'node') return child.pid === undefined ? [] : [child.pid];
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).flatMap((pid) => {
    try {
      const [, comm, ppid] = /^\d+ \((.*)\) \S (\d+)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8')) ?? [];
      return comm === 'k6' && Number(ppid) === child.pid ? [Number(pid)] : [];
    } catch {
      return []; // gone meanwhile
    }
  });
}

const signal = (pids: number[], name: NodeJS.Signals) => pids.filter((pid) => {
  try {
    return process.kill(pid, name);
  } catch {
    return false;
  }
});

/**
 * Runs the load and stops its generator for 1.5 s, 2 s into each scenario (the first `maxStops`): timed from the
 * scenario's first trigger through `relay` when given, else from its `N requests over` line.
 */
function loadWithStops(args: string[], { maxStops = Infinity, engine = 'node', via }: { maxStops?: number; engine?: Engine; via?: Relay } = {}): Promise<{ code: number | null; out: string; stops: number }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONFORMANCE_') && !k.startsWith('VITEST')));
  const child = spawn(process.execPath, [CLI, 'load', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let stops = 0;
  let started = 0;
  let timed = 0;
  const timers: NodeJS.Timeout[] = [];
  const stopIn2s = () => {
    timers.push(setTimeout(() => {
      if (child.exitCode !== null) return;
      const stopped = signal(generators(child, engine), 'SIGSTOP');
      if (stopped.length === 0) return;
      stops += 1;
      timers.push(setTimeout(() => signal(stopped, 'SIGCONT'), 1500));
    }, 2000));
  };
  if (via) {
    via.onTrigger = () => {
      if (timed >= Math.min(started, maxStops)) return;
      timed += 1;
      stopIn2s();
    };
  }
  child.stdout.on('data', (d: Buffer) => {
    const before = (out.match(/requests over [\d.]+ s …/g) ?? []).length;
    out += d.toString();
    started = (out.match(/requests over [\d.]+ s …/g) ?? []).length;
    if (!via) for (let i = before; i < Math.min(started, maxStops); i++) stopIn2s();
  });
  // the load prints a line every 5 s while it runs
  killWhenSilent(child);
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      for (const t of timers) clearTimeout(t);
      resolve({ code, out, stops });
    });
  });
}

describe('a generator stopped by SIGSTOP gives no load verdict', () => {
  test.for(ENGINES)('%s: trigger-limit and category-isolation, each stopped 1.5 s in its over-limit phase: not-verified naming the lag, never fail', async (engine, { skip }) => {
    if (engine === 'k6' && !k6) return skip(`no usable k6 on PATH (${k6Missing}): the k6 engine's generator cannot be stopped here`);
    const reportDir = join(root, `stopped-${engine}`);
    const r = await loadWithStops(['--profile', 'short', '--target', relay.url, '--api-key', reference.apiKeys.dev, '--rate-limit-rps', '200',
      '--scenario', 'trigger-limit', '--scenario', 'category-isolation', '--engine', engine, '--report-dir', reportDir], { engine, via: relay });
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
    const r = await loadWithStops(['--profile', 'short', '--scenario', 'trigger-limit', '--scenario', 'category-isolation', '--report-dir', reportDir], { maxStops: 1 });
    expect(r.stops, r.out).toBe(1);
    expect(r.out).toMatch(/^Plan: 2 scenario\(s\), .*scenarios at once, each against its own embedded reference; a starved one runs again alone/m);
    expect(r.out).toMatch(/^ {2}(trigger-limit, category-isolation|trigger-limit|category-isolation): starved running at once \(.*\); running (them|it) again one at a time$/m);
    expect(r.out).not.toMatch(/MUST fail|SHOULD warn/);
    expect([0, 3]).toContain(r.code);
  });
});
