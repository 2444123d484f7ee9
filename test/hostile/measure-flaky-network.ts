// Measurement script (not a test; in test/ beside the proxy it drives): the whole suite against the embedded reference, directly and then behind the flaky
// proxy with N seeds; prints per seed the MUST failures, each rule whose verdict differs from the direct run (with
// its reason), the transport faults met and what was left on the target.
// Run: npm run bench:network [-- --runs 10] [--first-seed 1] [--reset-rate 0.02] [--jitter-ms 100]
// (--reset-rate 0.06: 6 % of connections reset, half before the target answered and half after: 3 % + 3 %)
import { loadavg } from 'node:os';
import { runBehindFlakyProxy } from './flaky-network-run.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : fallback);
const runs = option('runs', 10);
const resetRate = option('reset-rate', 0.02);
const jitterMs = option('jitter-ms', 100);
const firstSeed = option('first-seed', 1);

const direct = await runBehindFlakyProxy({ resetRate: 0, jitterMs: 0, seed: 0 }, []);
const directVerdicts = new Map(direct.report.requirements.map((r) => [r.id, r.verdict]));
console.log(`direct: exit ${direct.code}, ${direct.report.summary.verdict}, load ${loadavg()[0]!.toFixed(1)}`);
let mustFailures = 0;
let leftovers = 0;
for (let seed = firstSeed; seed < firstSeed + runs; seed++) {
  const started = performance.now();
  const run = await runBehindFlakyProxy({ resetRate, jitterMs, seed }, []);
  const failedMust = run.report.requirements.filter((r) => r.level === 'MUST' && r.verdict === 'fail');
  const differing = run.report.requirements.filter((r) => r.verdict !== directVerdicts.get(r.id));
  mustFailures += failedMust.length;
  leftovers += run.report.leaks.length + run.leftOnTarget.length;
  const t = run.report.summary.transport;
  console.log(
    `seed ${seed}: exit ${run.code}, ${run.report.summary.verdict}, ${((performance.now() - started) / 1000).toFixed(0)} s, load ${loadavg()[0]!.toFixed(1)}; ` +
      `proxy: ${run.proxy.connections} connections, ${run.proxy.resetBefore} reset before / ${run.proxy.resetAfter} after the target; ` +
      `tests met ${t?.faultsMet ?? 0} fault(s), ${t?.testsRetried ?? 0} test(s) ran again; MUST failed ${failedMust.length}; leaks ${run.report.leaks.length}, left on target ${run.leftOnTarget.length}`,
  );
  for (const r of differing) console.log(`  ${r.id}: ${directVerdicts.get(r.id)} → ${r.verdict}${r.reason ? ` (${r.reason.split('\n')[0]!.slice(0, 200)})` : ''}`);
  for (const r of failedMust) console.log(`  FAIL ${r.id}: ${(r.tests.find((x) => x.status === 'failed')?.message ?? '').split('\n')[0]}`);
  for (const leftover of [...run.report.leaks, ...run.leftOnTarget]) console.log(`  LEFT ${leftover}`);
}
console.log(`${runs} runs (reset rate ${resetRate} of connections, jitter 0–${jitterMs} ms): ${mustFailures} MUST failures, ${leftovers} leftovers`);
