// Benchmark script (not a test): drives POST /v1/events/trigger over keep-alive connections and prints req/s and latency.
// Run: node --import tsx reference/bench/trigger-throughput.ts [--seconds 5] [--concurrency 64]
import { Pool } from 'undici';
import { startReference } from '../index.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const seconds = arg('seconds', 5);
const warmupSeconds = arg('warmup', 1);
const concurrency = arg('concurrency', 64);

const ref = await startReference({ rateLimits: { trigger: 1_000_000 }, regional: false });
const pool = new Pool(ref.baseUrl, { connections: concurrency, pipelining: 1 });
const headers = { authorization: `ApiKey ${ref.apiKeys.dev}`, 'content-type': 'application/json' };

const create = await pool.request({
  path: '/v2/workflows',
  method: 'POST',
  headers,
  body: JSON.stringify({ name: 'Bench', workflowId: 'bench', active: true, steps: [{ name: 'Inbox', type: 'in_app' }] }),
});
await create.body.text();
if (create.statusCode !== 201) throw new Error(`workflow creation failed: ${create.statusCode}`);

const body = JSON.stringify({ name: 'bench', to: ['subscriber-1', { subscriberId: 'subscriber-2', email: 'b@example.com' }], payload: { n: 1 } });
const statuses = new Map<number, number>();
const latencies: number[] = [];
let measuring = false;
let stop = false;

async function worker(): Promise<void> {
  while (!stop) {
    const t0 = performance.now();
    const r = await pool.request({ path: '/v1/events/trigger', method: 'POST', headers, body });
    await r.body.dump();
    if (measuring) {
      latencies.push(performance.now() - t0);
      statuses.set(r.statusCode, (statuses.get(r.statusCode) ?? 0) + 1);
    }
  }
}

const workers = Array.from({ length: concurrency }, () => worker());
await new Promise((r) => setTimeout(r, warmupSeconds * 1000));
measuring = true;
const start = performance.now();
await new Promise((r) => setTimeout(r, seconds * 1000));
measuring = false;
const elapsed = (performance.now() - start) / 1000;
stop = true;
await Promise.all(workers);
await pool.close();
await ref.close();

latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
const total = latencies.length;
console.log(`duration        ${elapsed.toFixed(2)} s (after ${warmupSeconds} s warm-up), concurrency ${concurrency}`);
console.log(`requests        ${total}`);
console.log(`throughput      ${(total / elapsed).toFixed(0)} req/s`);
console.log(`statuses        ${JSON.stringify(Object.fromEntries(statuses))}`);
console.log(`latency p50     ${pct(50).toFixed(2)} ms`);
console.log(`latency p99     ${pct(99).toFixed(2)} ms`);
