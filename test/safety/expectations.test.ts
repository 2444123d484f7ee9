// Baselines: known gaps do not fail the run, surprises do — an unexpected pass included; skips are never passes.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
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
  // why: rules with tests of their own (not checked on every exchange), so each run loads two suite files, not all
  const result = await runCli(['run', '--rules', 'AUTH-03,AUTH-02', '--report-dir', reportDir, ...args]);
  return { ...result, report: JSON.parse(readFileSync(join(reportDir, 'conformance.json'), 'utf8')) };
}

describe.concurrent('expectations files', () => {
  it('rejects unknown rule IDs and malformed entries, naming the file', ({ expect }) => {
    expect(() => loadExpectations(baseline('bad-id.yaml', 'AUTH-99: fail\n'))).toThrow(ConfigError);
    expect(() => loadExpectations(baseline('bad-value.yaml', 'AUTH-03: broken\n'))).toThrow(/AUTH-03/);
  });

  it('a known failure is expected: exit 0, and the report still says non-conformant', async ({ expect }) => {
    const result = await run(['--fault', 'bearer-accepted', '--expectations', baseline('known.yaml', 'AUTH-03: fail\n')]);
    expect(result.code, result.stdout).toBe(0);
    expect(result.report.summary.verdict).toBe('non-conformant');
    expect(result.report.expectations).toMatchObject({ matched: 1, unexpected: [] });
  });

  it('an unexpected pass is reported as such and fails the run', async ({ expect }) => {
    const result = await run(['--expectations', baseline('stale.yaml', 'AUTH-03: fail\nAUTH-02: [pass, fail]\n')]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('UNEXPECTED PASS: AUTH-03 is pass');
    expect(result.report.expectations.unexpected).toEqual([{ key: 'AUTH-03', expected: ['fail'], actual: 'pass', kind: 'unexpected-pass' }]);
  });

  it('a MUST rule the baseline does not name must hold: its failure is a surprise, exit 1', async ({ expect }) => {
    const result = await run(['--fault', 'bearer-accepted', '--expectations', baseline('unrelated.yaml', 'AUTH-02: pass\n')]);
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toContain('UNEXPECTED RESULT: AUTH-03 is fail');
    expect(result.report.expectations.unexpected).toEqual([{ key: 'AUTH-03', expected: ['pass', 'not-applicable'], actual: 'fail', kind: 'unexpected-result' }]);
  });

  it('a skipped rule is reported not-verified with the reason, never pass', async ({ expect }) => {
    const result = await run(['--expectations', baseline('skip.yaml', 'AUTH-02:\n  skip: our staging has no unauthenticated route\n')]);
    const skipped = result.report.requirements.find((r: { id: string }) => r.id === 'AUTH-02');
    expect(skipped.verdict).toBe('not-verified');
    expect(skipped.reason).toContain('our staging has no unauthenticated route');
  });
});
