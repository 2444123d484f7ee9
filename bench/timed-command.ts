// One command of a benchmark: its wall-clock time, output and exit code, and the busiest moment of the machine meanwhile.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';

export interface Timed {
  ms: number;
  load: number;
  output: string;
  code: number | null;
}

/** Runs a command, returns its wall-clock time and the highest 1-minute load average seen meanwhile. */
export function timed(command: string, commandArgs: string[], cwd: string): Promise<Timed> {
  return new Promise((resolve) => {
    const started = performance.now();
    let load = loadavg()[0]!;
    const sampler = setInterval(() => (load = Math.max(load, loadavg()[0]!)), 1000);
    const child = spawn(command, commandArgs, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      clearInterval(sampler);
      resolve({ ms: performance.now() - started, load: Math.max(load, loadavg()[0]!), output, code });
    });
  });
}
