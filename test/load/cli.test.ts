// `conformance load` refuses what it must refuse before sending anything, and says why (exit 2).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadCommand, type LoadCommandOptions } from '../../cli/commands/load-command.ts';
import { isLoopbackUrl } from '../../load/target/loopback.ts';
import { runCli } from '../hostile/run-cli.ts';

const base: LoadCommandOptions = { scenarios: ['trigger-limit'], engine: 'node', rateLimitRps: 600, reportDir: '/nonexistent/never-written', allowRemoteLoad: false, profile: 'short' };

async function run(opts: Partial<LoadCommandOptions>): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await loadCommand({ ...base, ...opts }, { log: (s) => lines.push(s) });
  return { code, out: lines.join('\n') };
}

describe('conformance load: refusals', () => {
  test('a non-loopback target is refused without --allow-remote-load', async () => {
    const r = await run({ target: 'https://api.example.test', apiKey: 'k' });
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/refusing to send load to https:\/\/api\.example\.test.*--allow-remote-load/);
  });

  test('--engine k6 without k6 on PATH says so and exits 2', async () => {
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const r = await run({ engine: 'k6' });
      expect(r.code).toBe(2);
      expect(r.out).toMatch(/no `k6` executable on PATH/);
    } finally {
      process.env.PATH = saved;
    }
  });

  test('an unknown scenario names the known ones', async () => {
    const r = await run({ scenarios: ['trigger-limits'] });
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/unknown scenario "trigger-limits".*trigger-limit, trigger-under-limit/);
  });

  test('a plan beyond the hard bounds is refused after printing it', async () => {
    const r = await run({ target: 'http://127.0.0.1:9', apiKey: 'k', profile: 'full', rateLimitRps: 100_000 });
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/^Plan: 1 scenario\(s\), \d+ requests over 41\.0 s/);
    expect(r.out).toMatch(/exceeds the bounds/);
  });

  test('loopback recognition', () => {
    for (const u of ['http://127.0.0.1:8080', 'http://localhost', 'http://[::1]:3000', 'http://127.1.2.3']) expect(isLoopbackUrl(new URL(u))).toBe(true);
    for (const u of ['http://10.0.0.1', 'http://example.test', 'http://[::2]', 'http://127.0.0.1.nip.io']) expect(isLoopbackUrl(new URL(u))).toBe(false);
  });
});

describe('conformance load: the documented trigger limit', () => {
  const limitOf = async (args: string[], env: Record<string, string> = {}) => {
    const result = await runCli(['load', '--target', 'http://127.0.0.1:9', '--api-key', 'k', '--scenario', 'trigger-limit', ...args], env);
    return /trigger limit (\d+)\/s/.exec(result.stdout)?.[1];
  };

  test('is the limits.triggerRps the target declares (config file or CONFORMANCE_TRIGGER_RPS), unless --rate-limit-rps says otherwise', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cft-load-limit-'));
    const config = join(dir, 'conformance.yaml');
    writeFileSync(config, 'limits:\n  triggerRps: 300\n');
    const [fromFile, fromEnv, fromFlag, byDefault] = await Promise.all([
      limitOf(['--config', config]),
      limitOf([], { CONFORMANCE_TRIGGER_RPS: '250' }),
      limitOf(['--config', config, '--rate-limit-rps', '450']),
      limitOf([]),
    ]);
    expect({ fromFile, fromEnv, fromFlag, byDefault }).toEqual({ fromFile: '300', fromEnv: '250', fromFlag: '450', byDefault: '600' });
  });

  test('a declared limit that is no positive integer is refused, naming the setting', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cft-load-limit-'));
    const config = join(dir, 'conformance.yaml');
    writeFileSync(config, 'limits:\n  triggerRps: 0\n');
    const result = await runCli(['load', '--config', config]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('limits.triggerRps');
  });
});
