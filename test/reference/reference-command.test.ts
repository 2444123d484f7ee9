// `conformance reference` announces everything a run against it needs, the regional base address (VER-02) included.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, spawnCli } from '../hostile/run-cli.ts';

describe('conformance reference', () => {
  it('prints baseUrl, regionalBaseUrl and the keys, and VER-02 can then be run against it', async () => {
    const reference = spawnCli(['reference', '--port', '0']);
    try {
      const announced = JSON.parse(await reference.waitFor(/^\{/)) as { baseUrl: string; regionalBaseUrl: string; apiKeys: Record<string, string> };
      expect(announced.regionalBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(announced.regionalBaseUrl).not.toBe(announced.baseUrl);
      const dir = mkdtempSync(join(tmpdir(), 'cft-ver02-'));
      const { apiKeys } = announced;
      const run = await runCli(['run', '--rules', 'VER-02', '--target', announced.baseUrl, '--regional-target', announced.regionalBaseUrl, '--api-key', apiKeys.dev!, '--secondary-api-key', apiKeys.prod!, '--restricted-api-key', apiKeys.restricted!, '--report-dir', dir]);
      const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { requirements: { id: string; verdict: string }[] };
      expect(report.requirements.find((r) => r.id === 'VER-02')!.verdict, run.stdout).toBe('pass');
    } finally {
      reference.signal('SIGINT');
    }
    expect((await reference.done).code).toBe(0);
  }, 120_000);
});
