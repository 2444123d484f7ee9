// `conformance --version` and `conformance reference` start without the test runner: heavy modules load only in
// the commands that need them (measured: see docs/benchmarks.md).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, startCli } from '../hostile/run-cli.ts';

const TRACE = { NODE_OPTIONS: `--import=${fileURLToPath(new URL('./module-trace.mjs', import.meta.url))}` };
// fast-check: the fuzz generators build their arbitraries as they load (0.6 s of CPU), so only `fuzz` may load them.
const RUNNER = /\/node_modules\/(vitest|@vitest|vite|rolldown|testcontainers|allure[^/]*|fast-check)\//;

// The Sigstore signer and ajv/yaml (settings and baselines) serve some commands only: 0.5 s of CPU at every start when
// they loaded with the command table.
const SIGNER_AND_VALIDATORS = /\/node_modules\/(@sigstore|sigstore|ajv|ajv-formats|yaml)\//;

const TSX = /\/node_modules\/tsx\//;

const loadedRunnerModules = (stderr: string, heavy = RUNNER) => stderr.split('\n').filter((l) => l.startsWith('LOADED ') && heavy.test(l));

describe('CLI start-up', () => {
  it('the trace sees the runner where it is loaded (run --rules loads vitest)', async () => {
    const result = await runCli(['run', '--rules', 'AUTH-01', '--report-dir', fileURLToPath(new URL('../../reports/startup-trace', import.meta.url))], TRACE);
    expect(loadedRunnerModules(result.stderr).length).toBeGreaterThan(0);
  });

  it('--version loads no test runner, signer or validator', async () => {
    const result = await runCli(['--version'], TRACE);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(loadedRunnerModules(result.stderr)).toEqual([]);
    expect(loadedRunnerModules(result.stderr, SIGNER_AND_VALIDATORS)).toEqual([]);
  });

  it('starts from the bundle of the CLI, not through tsx (bin/cli-bundle.mjs: 0.5 s of CPU per start)', async () => {
    const result = await runCli(['--version'], TRACE);
    expect(loadedRunnerModules(result.stderr, TSX)).toEqual([]);
    expect(result.stderr).toMatch(/^LOADED .*\/node_modules\/\.cache\/conformance-cli\/.*\/main\.mjs$/m);
  });

  it('reference loads no test runner', async () => {
    const reference = await startCli(['reference'], TRACE);
    expect(JSON.parse(reference.output).baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ended = await reference.stop();
    expect(ended, reference.stderr().split('\n').filter((l) => !l.startsWith('LOADED')).join('\n')).toBe(0);
    expect(loadedRunnerModules(reference.stderr())).toEqual([]);
  });
});
