// Benchmark script (not a test): the built-in engine's highest sustained arrival rate and its arrival-rate accuracy
// at 600/s and 5,000/s, against a trivial server and the reference, side by side with wrk on the same server.
// Run: node --import tsx load/bench/engine-vs-wrk.ts [--seconds 5]
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { runOpenModel } from '../engine/open-model.ts';
import { newHistogram, quantiles, recordMs } from '../engine/histogram.ts';

interface Target {
  baseUrl: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const seconds = Number(argOf('--seconds') ?? 5);
const CONNECTIONS = 64;
const ACCURACY = 0.005;

function argOf(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function startServer(kind: string): Promise<{ target: Target; child: ChildProcess }> {
  const script = fileURLToPath(new URL('./servers.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      if (buf.includes('\n')) resolve(buf.split('\n')[0]!);
    });
    child.on('exit', (c) => reject(new Error(`${kind} server exited with ${c}`)));
  });
  return { target: JSON.parse(line) as Target, child };
}

interface EngineRun {
  rate: number;
  achieved: number;
  accuracy: number;
  dropped: number;
  errors: number;
  lagP99: number;
  latencyP99: number;
  ok: boolean;
}

/** One open-model run at `rate` for `secs`: achieved rate = sends / (last − first send) span. */
async function engineAt(t: Target, rate: number, secs: number): Promise<EngineRun> {
  const lag = newHistogram();
  const latency = newHistogram();
  let non2xx = 0;
  const count = Math.round(rate * secs);
  const r = await runOpenModel({
    origin: t.baseUrl,
    streams: [{ startMs: 0, intervalMs: 1000 / rate, count, method: t.method, path: t.path, headers: t.headers, ...(t.body ? { body: t.body } : {}) }],
    connections: CONNECTIONS,
    maxInFlight: 4096,
    timeoutMs: 10_000,
    decodeHeaders: false,
    events: {
      onSent: (_k, at, sent) => recordMs(lag, sent - at),
      onResponse: (_k, at, _s, done, status) => {
        recordMs(latency, done - at);
        if (status < 200 || status >= 300) non2xx++;
      },
    },
  });
  const sent = r.scheduled - r.dropped;
  const achieved = (sent - 1) / ((r.lastSentMs - r.firstSentMs) / 1000);
  const accuracy = achieved / rate - 1;
  const lost = r.dropped + r.errors + non2xx;
  const q = quantiles(latency);
  // why: "sustained" = on schedule (±0.5%), nothing lost, and responses keep up (p99 from schedule under 1 s)
  const ok = Math.abs(accuracy) <= ACCURACY && lost === 0 && (q?.p99 ?? Infinity) < 1000;
  return { rate, achieved, accuracy, dropped: r.dropped, errors: r.errors + non2xx, lagP99: quantiles(lag)?.p99 ?? NaN, latencyP99: q?.p99 ?? NaN, ok };
}

async function highestSustained(t: Target): Promise<{ best: EngineRun | undefined; tried: EngineRun[] }> {
  const tried: EngineRun[] = [];
  let best: EngineRun | undefined;
  let rate = 2000;
  let failures = 0;
  // why: a geometric ladder; a rung is retried twice (a shared machine has hiccups) before the ladder stops
  while (rate <= 200_000 && failures < 3) {
    const run = await engineAt(t, rate, Math.min(seconds, 3));
    tried.push(run);
    if (run.ok) {
      best = run;
      failures = 0;
      rate = Math.round(rate * 1.25);
    } else failures++;
    await pause(500);
  }
  // why: the 25% rungs only bracket the ceiling; three bisection steps narrow it to within ~3%
  let low = best?.rate ?? 0;
  let high = Math.round(low * 1.25);
  for (let step = 0; step < 3 && low > 0; step++) {
    const mid = Math.round((low + high) / 2);
    const run = await engineAt(t, mid, Math.min(seconds, 3));
    tried.push(run);
    if (run.ok) {
      best = run;
      low = mid;
    } else high = mid;
    await pause(500);
  }
  return { best, tried };
}

/** The client library's own ceiling: closed loop, CONNECTIONS workers, no schedule (what the engine cannot exceed). */
async function undiciClosedLoop(t: Target, secs: number): Promise<number> {
  const pool = new Pool(t.baseUrl, { connections: CONNECTIONS, pipelining: 1 });
  let n = 0;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      const r = await pool.request({ path: t.path, method: t.method, headers: t.headers, body: t.body ?? null });
      await r.body.dump();
      n++;
    }
  };
  const workers = Array.from({ length: CONNECTIONS }, worker);
  const t0 = performance.now();
  await pause(secs * 1000);
  const rate = n / ((performance.now() - t0) / 1000);
  stop = true;
  await Promise.all(workers);
  await pool.close();
  return rate;
}

function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (e) {
    // why: `wrk --version` exits 1 after printing its version
    return (e as { status?: number }).status === 1;
  }
}

function wrk(t: Target, secs: number): { rps: number; p99: string } {
  const dir = mkdtempSync(join(tmpdir(), 'wrk-'));
  const lua = join(dir, 'req.lua');
  const headerLines = Object.entries(t.headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`);
  writeFileSync(lua, [`wrk.method = ${JSON.stringify(t.method)}`, ...(t.body ? [`wrk.body = ${JSON.stringify(t.body)}`] : []), ...headerLines].join('\n'));
  // why: one wrk thread against one engine thread: same CPU budget for both load generators
  const out = execFileSync('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${secs}s`, '--latency', '-s', lua, `${t.baseUrl}${t.path}`], { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const p99 = /\s99%\s+(\S+)/.exec(out)?.[1] ?? '?';
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1];
  if (non2xx) process.stdout.write(`  (wrk saw ${non2xx} non-2xx responses)\n`);
  return { rps, p99 };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(3)}%`;

const withWrk = hasWrk();
process.stdout.write(`engine-vs-wrk: ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}, ${seconds} s runs\n`);
if (!withWrk) process.stdout.write('wrk not found on PATH (Debian: apt-get install -y wrk): wrk columns skipped\n');

for (const kind of ['trivial', 'reference']) {
  const { target, child } = await startServer(kind);
  try {
    process.stdout.write(`\n== ${kind} server (${target.method} ${target.path}) ==\n`);
    await engineAt(target, 2000, 1); // warm-up: JIT and connections
    for (const rate of [600, 5000]) {
      const r = await engineAt(target, rate, seconds);
      process.stdout.write(`engine @ ${rate}/s: achieved ${r.achieved.toFixed(2)}/s (${pct(r.accuracy)}), send lag p99 ${r.lagP99} ms, latency p99 ${r.latencyP99} ms, dropped ${r.dropped}, errors ${r.errors} → ${Math.abs(r.accuracy) <= ACCURACY ? 'within ±0.5%' : 'OUTSIDE ±0.5%'}\n`);
      await pause(500);
    }
    const { best, tried } = await highestSustained(target);
    process.stdout.write(`engine ladder: ${tried.map((t) => `${t.rate}${t.ok ? '✓' : `✗(${pct(t.accuracy)}, drop ${t.dropped}, p99 ${t.latencyP99})`}`).join(' ')}\n`);
    process.stdout.write(`engine highest sustained arrival rate: ${best ? `${best.rate}/s (achieved ${best.achieved.toFixed(1)}/s)` : 'none'}\n`);
    const ceiling = await undiciClosedLoop(target, seconds);
    process.stdout.write(`undici closed loop, ${CONNECTIONS} connections (the client library's ceiling here): ${ceiling.toFixed(0)} req/s; engine reaches ${best ? (best.rate / ceiling).toFixed(2) : '0'}× of it\n`);
    if (withWrk) {
      await pause(500);
      const w = wrk(target, seconds);
      const ratio = best ? best.rate / w.rps : 0;
      process.stdout.write(`wrk -t1 -c${CONNECTIONS} (closed model, max throughput): ${w.rps.toFixed(0)} req/s, p99 ${w.p99}\n`);
      process.stdout.write(`engine / wrk: ${ratio.toFixed(2)}× ${ratio >= 0.7 ? '(goal ≥ 0.7× met)' : '(goal ≥ 0.7× NOT met)'}\n`);
    }
  } finally {
    child.kill('SIGTERM');
  }
}
