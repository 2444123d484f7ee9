// Runs the real CLI as a child process, as a user would, with only the environment the test gives it.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../bin/conformance.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

/** `timed`: the run's own deadline is under test, so it keeps its normal CPU priority. */
export function runCli(args: string[], env: Record<string, string> = {}, killAfterMs = 120_000, { timed = false } = {}): Promise<CliResult> {
  const started = Date.now();
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONFORMANCE_') && !k.startsWith('VITEST')));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    // why: a CLI run is batch work that takes a core for seconds; the servers and real-time load of the test
    // files running beside it (harness tests run in parallel) must not starve behind it
    if (child.pid !== undefined && !timed) setPriority(child.pid, 10);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, elapsedMs: Date.now() - started });
    });
  });
}
