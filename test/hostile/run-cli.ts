// Runs the real CLI as a child process, as a user would, with only the environment the test gives it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../bin/conformance.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

export function runCli(args: string[], env: Record<string, string> = {}, killAfterMs = 120_000): Promise<CliResult> {
  const started = Date.now();
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONFORMANCE_') && !k.startsWith('VITEST')));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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

export interface LongRunningCli {
  /** The first line the command printed on stdout. */
  firstLine: string;
  stderr: () => string;
  stop: () => Promise<number | null>;
}

/** Starts a command that runs until signalled (`conformance reference`), and waits for its first stdout line. */
export function startCli(args: string[], env: Record<string, string> = {}, timeoutMs = 30_000): Promise<LongRunningCli> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONFORMANCE_') && !k.startsWith('REFERENCE_') && !k.startsWith('VITEST')));
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no line within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.stdout.on('data', (d) => {
      stdout += d;
      if (!stdout.includes('\n')) return;
      clearTimeout(timer);
      resolve({ firstLine: stdout.split('\n')[0]!, stderr: () => stderr, stop: () => (child.kill('SIGTERM'), closed) });
    });
    closed.then((code) => reject(new Error(`exited ${code} before printing a line; stderr: ${stderr}`)));
  });
}
