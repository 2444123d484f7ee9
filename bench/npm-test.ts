// Benchmark script (not a test): how often `npm test` passes and how long it takes. Runs it N times and prints each
// run's exit, time and the highest load average seen, then the pass rate and the median time. A busy machine
// inflates every number, so the load is printed beside each.
// Run: npm run bench:npm-test [-- --runs 10] [--fresh-clone] [--after-readme] [--hogs 2]
//   --fresh-clone: every run starts from a `git clone` of HEAD and `npm install` (not timed) in a temporary directory.
//   --after-readme: before each run, the README's own commands (`npx conformance run`, then its load line) leave
//                   their reports in reports/, as a new user's checkout has them.
//   --hogs K: K busy loops beside each run (two on a 2-core machine give a load average of about 8–12 with npm test).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timed, type Timed } from './timed-command.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : fallback);
const runs = option('runs', 3);
const hogs = option('hogs', 0);
const freshClone = args.includes('--fresh-clone');
const afterReadme = args.includes('--after-readme');
/** A hog lives no longer than this, whatever happens to the bench. */
const HOG_BOUND_S = 1_800;

/** A busy loop in a child process, bounded in time, ended with the run. */
function startHog(): ChildProcess {
  return spawn(process.execPath, ['-e', `const end = Date.now() + ${HOG_BOUND_S * 1000}; while (Date.now() < end) {}`], { stdio: 'ignore' });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const print = (line: string) => process.stdout.write(`${line}\n`);
/** The lines of a failed run that name what failed (vitest's FAIL lines, the CLI's verdict lines). */
const failureLines = (output: string) => output.split('\n').filter((l) => /^(\[[\w:-]+\]\s*)?\s*(FAIL|×|✗)\s|NON-CONFORMANT|INCOMPLETE|ERR!/.test(l)).slice(0, 20);

print(`npm test, ${runs} run(s)${freshClone ? ', each from a fresh clone' : ' in this checkout'}${afterReadme ? ', after the README\'s commands' : ''}${hogs > 0 ? `, with ${hogs} CPU hog(s) beside it` : ''} (Node ${process.versions.node}, ${availableParallelism()} cores)`);
const times: number[] = [];
let passed = 0;
for (let i = 1; i <= runs; i++) {
  let cwd = ROOT;
  if (freshClone) {
    cwd = join(mkdtempSync(join(tmpdir(), 'bench-npm-test-')), 'repo');
    await timed('git', ['clone', '--quiet', ROOT, cwd], ROOT);
    const install = await timed('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], cwd);
    if (install.code !== 0) throw new Error(`npm install failed in the clone:\n${install.output.slice(-2000)}`);
  }
  if (afterReadme) {
    await timed('npx', ['conformance', 'run', '--load-follows'], cwd);
    await timed('npx', ['conformance', 'load', '--profile', 'short'], cwd);
  }
  const running = Array.from({ length: hogs }, startHog);
  const t = await timed('npm', ['test'], cwd);
  for (const hog of running) hog.kill('SIGKILL');
  if (freshClone) rmSync(join(cwd, '..'), { recursive: true, force: true });
  times.push(t.ms);
  if (t.code === 0) passed += 1;
  print(`  run ${i}: ${t.code === 0 ? 'pass' : `FAIL (exit ${t.code})`} in ${s(t.ms)}   load avg ≤ ${t.load.toFixed(1)}`);
  if (t.code !== 0) {
    // the whole output of a failed run is kept, for what the lines below leave out
    const log = join(mkdtempSync(join(tmpdir(), 'bench-npm-test-')), 'output.log');
    writeFileSync(log, t.output);
    for (const line of failureLines(t.output)) print(`      ${line.trim().slice(0, 240)}`);
    print(`      whole output: ${log}`);
  }
}
print(`pass rate ${passed}/${runs}; median ${s(median(times))}, fastest ${s(Math.min(...times))}, slowest ${s(Math.max(...times))}`);
