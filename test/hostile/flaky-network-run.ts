// One `conformance run` against a fresh reference behind the flaky proxy: shared by the harness test and the bench.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReference, type ReferenceOptions } from '../../reference/index.ts';
import { startFlakyProxy, type FlakyProxy, type FlakyProxyOptions } from './flaky-proxy.ts';

const CLI = fileURLToPath(new URL('../../bin/conformance.js', import.meta.url));

export interface FlakyRun {
  code: number | null;
  stdout: string;
  report: { summary: { verdict: string; transport?: { faultsMet: number; testsRetried: number } }; requirements: { id: string; level: string; verdict: string; reason?: string; tests: { name: string; status: string; message?: string }[] }[]; leaks: string[] };
  proxy: FlakyProxy['counts'];
  /** What the reference still holds after the run (every kind empty: nothing was left). */
  leftOnTarget: string[];
}

export async function runBehindFlakyProxy(network: Omit<FlakyProxyOptions, 'upstream'>, args: string[], env: Record<string, string> = {}, options: ReferenceOptions = {}): Promise<FlakyRun> {
  const reference = await startReference(options);
  const proxy = await startFlakyProxy({ ...network, upstream: { host: '127.0.0.1', port: Number(new URL(reference.baseUrl).port) } });
  const dir = mkdtempSync(join(tmpdir(), 'cft-flaky-'));
  const keys = ['--api-key', reference.apiKeys.dev, '--secondary-api-key', reference.apiKeys.prod, '--restricted-api-key', reference.apiKeys.restricted];
  const runArgs = ['run', '--target', proxy.url, '--regional-target', reference.regionalBaseUrl!, ...keys, '--report-dir', dir, ...args];
  try {
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONFORMANCE_') && !k.startsWith('VITEST')));
      const child = spawn(process.execPath, [CLI, ...runArgs], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.on('close', (c) => resolve({ code: c, stdout: out }));
    });
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as FlakyRun['report'];
    const leftOnTarget = Object.entries(reference.inventory()).flatMap(([kind, names]) => names.map((n) => `${kind}/${n}`));
    return { code, stdout, report, proxy: { ...proxy.counts }, leftOnTarget };
  } finally {
    await proxy.close();
    await reference.close();
  }
}
