// Baselines: known gaps do not fail the run, surprises do — an unexpected pass included; skips are never passes.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/config-error.ts';
import { loadExpectations } from '../../harness/expectations/expectations.ts';
import { runCli } from '../hostile/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'cft-expect-'));
const baseline = (name: string, yaml: string) => {
  const file = join(dir, name);
  writeFileSync(file, yaml);
  return file;
};
async function run(args: string[]) {
  const reportDir = mkdtempSync(join(dir, 'r-'));
  const result = await runCli(['run', '--rules', 'AUTH-03,ENV-01', '--report-dir', reportDir, ...args]);
  return { ...result, report: JSON.parse(readFileSync(join(reportDir, 'conformance.json'), 'utf8')) };
}

describe('expectations files', () => {
  it('rejects unknown rule IDs and malformed entries, naming the file', () => {
    expect(() => loadExpectations(baseline('bad-id.yaml', 'AUTH-99: fail\n'))).toThrow(ConfigError);
    expect(() => loadExpectations(baseline('bad-value.yaml', 'AUTH-03: broken\n'))).toThrow(/AUTH-03/);
  });

  it('a known failure is expected: exit 0, and the report still says non-conformant', async () => {
    const result = await run(['--fault', 'bearer-accepted', '--expectations', baseline('known.yaml', 'AUTH-03: fail\n')]);
    expect(result.code, result.stdout).toBe(0);
    expect(result.report.summary.verdict).toBe('non-conformant');
    expect(result.report.expectations).toMatchObject({ matched: 1, unexpected: [] });
  }, 90_000);

  it('an unexpected pass is reported as such and fails the run', async () => {
    const result = await run(['--expectations', baseline('stale.yaml', 'AUTH-03: fail\nENV-01: [pass, fail]\n')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('UNEXPECTED PASS: AUTH-03 is pass');
    expect(result.report.expectations.unexpected).toEqual([{ key: 'AUTH-03', expected: ['fail'], actual: 'pass', kind: 'unexpected-pass' }]);
  }, 90_000);

  it('a skipped rule is reported not-verified with the reason, never pass', async () => {
    const result = await run(['--expectations', baseline('skip.yaml', 'ENV-01:\n  skip: our staging lists no environments\n')]);
    const env01 = result.report.requirements.find((r: { id: string }) => r.id === 'ENV-01');
    expect(env01.verdict).toBe('not-verified');
    expect(env01.reason).toContain('our staging lists no environments');
  }, 90_000);
});
