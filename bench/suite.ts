// Benchmark script (not a test): how long the feedback loop takes. Prints the median wall-clock time of
// `conformance run` against the embedded reference (with its phase times), and of each step of `npm test`,
// each beside the load average, since a busy machine inflates every number.
// Run: npm run bench:suite [-- --runs 5] [--chains 3] [--fresh-clone] [--skip-chain]
//   --fresh-clone: every chain starts from a `git clone` of HEAD and `npm install` in a temporary directory.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timed, type Timed } from './timed-command.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : fallback);
const runs = option('runs', 5);
const chains = option('chains', 3);
const freshClone = args.includes('--fresh-clone');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const print = (line: string) => process.stdout.write(`${line}\n`);

function failIfBad(what: string, t: Timed): void {
  if (t.code === 0) return;
  print(`${what} exited ${t.code}:\n${t.output.slice(-3000)}`);
  process.exit(1);
}

// 1. conformance run against the embedded reference.
print(`conformance run against the embedded reference, ${runs} runs (Node ${process.versions.node}, ${availableParallelism()} cores)`);
const wall: number[] = [];
const functional: number[] = [];
const rateLimit: number[] = [];
for (let i = 1; i <= runs; i++) {
  const reportDir = mkdtempSync(join(tmpdir(), 'bench-suite-'));
  // --load-follows: RL-05 is the load run's to verify, so the run alone exits 0 as in `npm test`
  const t = await timed(process.execPath, ['bin/conformance.js', 'run', '--load-follows', '--report-dir', reportDir], ROOT);
  rmSync(reportDir, { recursive: true, force: true });
  failIfBad('conformance run', t);
  const phases = /Functional suites ([\d.]+) s, rate-limit suites ([\d.]+) s/.exec(t.output);
  const tests = /tests: (\d+) passed, (\d+) failed, (\d+) skipped/.exec(t.output);
  wall.push(t.ms);
  if (phases) {
    functional.push(Number(phases[1]) * 1000);
    rateLimit.push(Number(phases[2]) * 1000);
  }
  print(`  run ${i}: ${s(t.ms)} (functional ${phases?.[1]} s, rate-limit ${phases?.[2]} s; ${tests?.[0]})   load avg ≤ ${t.load.toFixed(2)}`);
}
print(`  median ${s(median(wall))}: functional suites ${s(median(functional))}, rate-limit suites ${s(median(rateLimit))}`);

// 2. The npm test chain, step by step, as package.json's `test` script lists it.
if (!args.includes('--skip-chain')) {
  const steps = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.test as string).split('&&').map((step) => step.trim().replace(/^npm run /, ''));
  const perStep = new Map<string, number[]>();
  const totals: number[] = [];
  print('');
  print(`npm test, step by step, ${chains} chain(s)${freshClone ? ' from a fresh clone (git clone of HEAD, npm install)' : ' in this checkout'}`);
  for (let i = 1; i <= chains; i++) {
    let cwd = ROOT;
    let total = 0;
    const line: string[] = [];
    const record = (step: string, t: Timed) => {
      (perStep.get(step) ?? perStep.set(step, []).get(step)!).push(t.ms);
      total += t.ms;
      line.push(`${step} ${s(t.ms)} (load ≤ ${t.load.toFixed(1)})`);
    };
    if (freshClone) {
      cwd = join(mkdtempSync(join(tmpdir(), 'bench-clone-')), 'repo');
      failIfBad('git clone', await timed('git', ['clone', '--quiet', ROOT, cwd], ROOT));
      const install = await timed('npm', ['install', '--no-audit', '--no-fund'], cwd);
      failIfBad('npm install', install);
      record('npm install', install);
    }
    for (const step of steps) {
      const t = await timed('npm', ['run', step], cwd);
      failIfBad(`npm run ${step}`, t);
      record(step, t);
    }
    if (freshClone) rmSync(join(cwd, '..'), { recursive: true, force: true });
    totals.push(total);
    print(`  chain ${i}: ${s(total)} — ${line.join(', ')}`);
  }
  print('  median per step:');
  for (const [step, times] of perStep) print(`    ${step.padEnd(18)} ${s(median(times)).padStart(8)}`);
  print(`    ${'total'.padEnd(18)} ${s(median(totals)).padStart(8)}`);
}
