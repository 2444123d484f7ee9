// A run leaves nothing behind, even when its tests fail; --read-only changes nothing at all.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'vitest';
import { startReference, type RunningReference, type ReferenceOptions } from '../../reference/index.ts';
import { runCli } from '../hostile/run-cli.ts';

/** A reference of the test's own (the tests run at once), closed when it ends. */
async function ownReference(options: ReferenceOptions, { onTestFinished }: TestContext): Promise<RunningReference> {
  const reference = await startReference(options);
  onTestFinished(() => reference.close());
  return reference;
}

// Rules whose tests create workflows, subscribers, topics, layouts, variables, agents and integrations.
const CREATING_RULES = 'TRIG-02,TS-05,TS-03,WF-01,EV-02,AGI-01,LP-01,AUTH-05,PREF-02,IDEM-02';

async function runAgainst(ref: RunningReference, extra: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'cft-safety-'));
  const args = ['run', '--target', ref.baseUrl, '--api-key', ref.apiKeys.dev, '--secondary-api-key', ref.apiKeys.prod, '--restricted-api-key', ref.apiKeys.restricted, '--report-dir', dir, ...extra];
  const result = await runCli(args);
  return { ...result, report: JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) };
}

describe.concurrent('staging safety', () => {
  it('leaves zero resources on the target after a run in which tests fail', async (context) => {
    const { expect } = context;
    const reference = await ownReference({ faults: ['recipient-cap-off', 'ts-cap-off', 'unmasked-secrets', 'agi-wrong-integration'] }, context);
    const before = reference.inventory();
    const result = await runAgainst(reference, ['--rules', CREATING_RULES]);
    expect(result.code, result.stdout).toBe(1);
    expect(result.report.requirements.filter((r: { verdict: string }) => r.verdict === 'fail').map((r: { id: string }) => r.id)).toEqual(
      expect.arrayContaining(['TRIG-02', 'TS-05', 'EV-02']),
    );
    expect(reference.inventory(), 'every resource the run created was removed').toEqual(before);
    expect(result.report.leaks).toEqual([]);
  });

  it('--read-only sends nothing that changes the target and claims nothing it did not check', async (context) => {
    const { expect } = context;
    const reference = await ownReference({}, context);
    const before = reference.inventory();
    const result = await runAgainst(reference, ['--read-only', '--rules', `AUTH-01,ENV-01,ENV-02,EV-01,EV-05,${CREATING_RULES}`]);
    expect(result.stdout).toContain('read-only');
    expect(reference.inventory()).toEqual(before);
    const byId = Object.fromEntries(result.report.requirements.map((r: { id: string }) => [r.id, r]));
    expect(byId['ENV-01'].verdict).toBe('pass');
    expect(byId['TRIG-02'].verdict).toBe('not-verified');
    expect(byId['TRIG-02'].reason).toContain('--read-only');
    expect(result.stdout).not.toContain(reference.apiKeys.dev);
  });
});
