// --target-image: option handling, and a missing container runtime detected at once with a clear message and a report.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/config-error.ts';
import { resolveSettings } from '../../config/resolve-settings.ts';
import { findContainerRuntime, startContainerTarget } from '../../harness/runner/container-target.ts';
import type { ConformanceReport } from '../../report/conformance-report.ts';
import { runCli } from '../hostile/run-cli.ts';

const emptyHome = mkdtempSync(join(tmpdir(), 'cft-home-'));
const noRuntime = { HOME: emptyHome, PATH: '/usr/bin:/bin' };

describe('container targets', () => {
  it('reads image, port, env and wait path from the config file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cft-ct-'));
    const file = join(dir, 'c.yaml');
    writeFileSync(file, 'target:\n  image: candidate:1\n  imagePort: 8080\n  imageEnv: {API_SECRET: x}\n  waitPath: /health\n  apiKey: k\n');
    const s = resolveSettings({ configFile: file });
    expect(s.target).toMatchObject({ image: 'candidate:1', imagePort: 8080, imageEnv: { API_SECRET: 'x' }, waitPath: '/health' });
  });

  it('refuses an image together with a running target, and an image without a key', () => {
    expect(() => resolveSettings({ flags: { 'target.image': 'candidate:1', 'target.baseUrl': 'http://127.0.0.1:1', 'target.apiKey': 'k' } })).toThrow(/either a running target/);
    expect(() => resolveSettings({ flags: { 'target.image': 'candidate:1' } })).toThrow(ConfigError);
    expect(() => resolveSettings({ flags: { 'target.image': 'candidate:1', 'target.apiKey': 'k', 'target.waitPath': 'health' } })).toThrow(/target.waitPath/);
  });

  it('finds a runtime from DOCKER_HOST, and none in an empty environment', () => {
    expect(findContainerRuntime({ DOCKER_HOST: 'tcp://127.0.0.1:2375', HOME: emptyHome })).toBe('tcp://127.0.0.1:2375');
    // This machine has no Docker engine; a machine that has one keeps its socket out of this check via HOME only.
    if (!existsSync('/var/run/docker.sock')) expect(findContainerRuntime(noRuntime)).toBeUndefined();
  });

  it('without a runtime, says so at once instead of trying to start anything', async (context) => {
    if (findContainerRuntime(noRuntime)) context.skip('a Docker socket exists on this machine: the no-runtime case cannot be staged');
    const started = Date.now();
    const startupTimeoutMs = 120_000;
    await expect(startContainerTarget({ image: 'candidate:1', port: 3000, env: {}, waitPath: '/', startupTimeoutMs, secrets: [] }, noRuntime)).rejects.toThrow(/no container runtime found/);
    // why: against the start-up bound, not a fixed second: a busy machine slows a local check, never by minutes
    expect(Date.now() - started, 'detection is a local check, not a wait for the start-up bound').toBeLessThan(startupTimeoutMs / 4);
  });

  it('the CLI exits 2 with a message naming the setting, no stack trace, and the reports saying why the run could not run', async (context) => {
    if (findContainerRuntime(noRuntime)) context.skip('a Docker socket exists on this machine: the no-runtime case cannot be staged');
    const reportDir = mkdtempSync(join(tmpdir(), 'cft-ct-'));
    const result = await runCli(['run', '--target-image', 'candidate:1', '--target-env', 'A=1', '--api-key', 'k', '--report-dir', reportDir], noRuntime);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('could not start candidate:1: target.image: no container runtime found');
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
    const report = JSON.parse(readFileSync(join(reportDir, 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(report.summary.verdict).toBe('error');
    expect(report.summary.error).toContain('could not start candidate:1: target.image: no container runtime found');
    expect(report.target.baseUrl).toBe('container image candidate:1 (not started)');
    for (const file of ['junit.xml', 'conformance.html']) expect(existsSync(join(reportDir, file)), file).toBe(true);
  });

  it('rejects a malformed --target-env', async () => {
    const result = await runCli(['run', '--target-image', 'candidate:1', '--target-env', 'novalue', '--api-key', 'k'], noRuntime);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--target-env takes KEY=VALUE');
  });
});
