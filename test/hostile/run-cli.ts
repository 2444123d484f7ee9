// Runs the real CLI as a child process, as a user would, with only the environment the test gives it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../bin/conformance.js', import.meta.url));

// why: the harness runs many CLI runs at once on two cores; each run's suite workers load the whole module graph, so
// one per run spares that CPU for the tests themselves (the harness: 174 s of CPU with two per run, 153 s so). The runs
// whose subject is several workers (interrupt.test.ts) say so in their own env, which overrides this.
const harnessDefaults: Record<string, string> = { CONFORMANCE_WORKERS: '1' };

/**
 * How the harness tells a hung CLI from a slow one: by its output. A run prints a progress line at least every 25
 * tests it runs, so one silent this long is hung; however long a busy machine makes a run that keeps printing, it is
 * never killed for its length (vitest's own timeout is only a backstop: vitest.config.ts).
 */
export const SILENCE_BOUND_MS = 300_000;

/** Kills `child` once it has printed nothing, on stdout or stderr, for `ms`. */
export function killWhenSilent(child: ChildProcess, ms = SILENCE_BOUND_MS): void {
  let killer = setTimeout(() => child.kill('SIGKILL'), ms);
  const alive = () => {
    clearTimeout(killer);
    killer = setTimeout(() => child.kill('SIGKILL'), ms);
  };
  child.stdout?.on('data', alive);
  child.stderr?.on('data', alive);
  child.on('close', () => clearTimeout(killer));
}

/**
 * A run that names no report folder would read and write the repository's reports/, where a user's own
 * `npx conformance run` leaves its report: each command a test runs gets a fresh folder of its own instead.
 */
function ownReportDir(args: string[]): Record<string, string> {
  return args.includes('--report-dir') ? {} : { CONFORMANCE_REPORT_DIR: mkdtempSync(join(tmpdir(), 'cft-cli-reports-')) };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

/**
 * `killAfterMs` is a bound on silence, not on the run: a run that keeps printing (its progress lines) is alive however
 * busy the machine makes it; one that prints nothing for that long is killed. `timed`: the run's own deadline is under
 * test, so it keeps its normal CPU priority.
 */
export function runCli(args: string[], env: Record<string, string> = {}, killAfterMs = SILENCE_BOUND_MS, { timed = false } = {}): Promise<CliResult> {
  const started = Date.now();
  const base = { ...harnessDefaults, ...ownReportDir(args), ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONFORMANCE_') && !k.startsWith('VITEST'))) };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    // why: a CLI run is batch work that takes a core for seconds; the servers and real-time load of the test
    // files running beside it (harness tests run in parallel) must not starve behind it
    if (child.pid !== undefined && !timed) setPriority(child.pid, 10);
    let stdout = '';
    let stderr = '';
    killWhenSilent(child, killAfterMs);
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      resolve({ code, stdout, stderr, elapsedMs: Date.now() - started });
    });
  });
}

export interface LongRunningCli {
  /** What the command printed on stdout until `until` matched. */
  output: string;
  /** Everything printed so far. */
  stdout: () => string;
  stderr: () => string;
  /** Sends the signal and waits for the exit: the code, or the signal that ended it. */
  stop: (signal?: NodeJS.Signals) => Promise<number | NodeJS.Signals | null>;
}

/** Starts a command that runs until signalled, and waits until its stdout matches `until` (default: one whole line). */
export function startCli(args: string[], env: Record<string, string> = {}, { until = /\n/, timeoutMs = SILENCE_BOUND_MS }: { until?: RegExp; timeoutMs?: number } = {}): Promise<LongRunningCli> {
  const base = { ...ownReportDir(args), ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONFORMANCE_') && !k.startsWith('REFERENCE_') && !k.startsWith('VITEST'))) };
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const closed = new Promise<number | NodeJS.Signals | null>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`stdout did not match ${until} within ${timeoutMs} ms; stdout: ${stdout}; stderr: ${stderr}`));
    }, timeoutMs);
    child.stdout.on('data', (d) => {
      stdout += d;
      if (!until.test(stdout)) return;
      clearTimeout(timer);
      resolve({ output: stdout, stdout: () => stdout, stderr: () => stderr, stop: (signal = 'SIGTERM') => (child.kill(signal), closed) });
    });
    closed.then((code) => reject(new Error(`ended (${code}) before stdout matched ${until}; stdout: ${stdout}; stderr: ${stderr}`)));
  });
}

export interface LiveCli {
  /** Resolves with the first stdout line matching, or rejects when the process ends without one. */
  waitFor(pattern: RegExp): Promise<string>;
  signal(name: NodeJS.Signals): void;
  done: Promise<CliResult>;
}

/** The CLI as a running child process, for tests that talk to it while it runs (signals, a server it starts). */
export function spawnCli(args: string[], env: Record<string, string> = {}, killAfterMs = SILENCE_BOUND_MS): LiveCli {
  const started = Date.now();
  const base = { ...harnessDefaults, ...ownReportDir(args), ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONFORMANCE_') && !k.startsWith('VITEST'))) };
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: (line: string) => void; reject: (e: Error) => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      const line = stdout.split('\n').find((l) => w.pattern.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  };
  killWhenSilent(child, killAfterMs);
  child.stdout.on('data', (d) => {
    stdout += d;
    check();
  });
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve) => {
    child.on('close', (code, signal) => {
      for (const w of waiters.splice(0)) w.reject(new Error(`the CLI ended (${code ?? signal}) without printing ${w.pattern}:\n${stdout}\n${stderr}`));
      resolve({ code, stdout, stderr, elapsedMs: Date.now() - started });
    });
  });
  return {
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        waiters.push({ pattern, resolve, reject });
        check();
      }),
    signal: (name) => void child.kill(name),
    done,
  };
}
