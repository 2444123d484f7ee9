// The verifier rebuilds exactly what the writer wrote: every kind of run the CLI produces, signed, verifies intact
// (no failed check) and says why it certifies nothing. Real CLI runs against the embedded reference.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { ATTESTATION_FILE, buildStatement } from '../../certify/attestation.ts';
import { bundleFiles, writeArchive } from '../../certify/bundle.ts';
import { certifyBundle } from '../../certify/certify-bundle.ts';
import { junitXml } from '../../report/junit.ts';
import { SUITE_VERSION } from '../../report/suite-info.ts';
import { readSigningKey, signStatement } from '../../certify/sign-attestation.ts';
import { readPublicKey } from '../../certify/verify-attestation.ts';
import { readBundle } from '../../certify/verify-bundle.ts';
import { runCli, spawnCli } from '../hostile/run-cli.ts';
import { vendorKey } from './vendor-key.ts';
import { certifiableReport } from './sample-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'bundle-run-kinds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const { privateKey, publicKey } = vendorKey(dir, 'ed25519');

async function verified(bundle: string) {
  const result = await runCli(['verify-bundle', bundle, '--public-key', publicKey]);
  expect(result.stdout).not.toContain('✗');
  expect(result.code, result.stdout).toBe(3);
  return result.stdout;
}

describe('every kind of signed run verifies intact and certifies nothing', () => {
  it('a subset, read-only, no-drain run with a baseline against a faulty reference', async () => {
    const reportDir = join(dir, 'options');
    const baseline = join(dir, 'baseline.yaml');
    writeFileSync(baseline, 'AUTH-01: fail\n');
    const run = await runCli(['run', '--rules', 'AUTH-01,ENV-02', '--read-only', '--no-drain', '--fault', 'missing-auth-accepted', '--expectations', baseline, '--report-dir', reportDir, '--bundle', '--sign-key', privateKey]);
    expect(run.stdout).toContain('(signed: attestation.sigstore.json)');
    const out = await verified(join(reportDir, 'conformance-bundle.tar.gz'));
    expect(out).toMatch(/NOT CERTIFIED: .*\(rule-subset, expectations-baseline, embedded-reference, reference-fault, read-only, no-drain/);
  });

  it('an interrupted run (SIGTERM) is intact and not certified because it was interrupted', async () => {
    const reportDir = join(dir, 'interrupted');
    const run = spawnCli(['run', '--report-dir', reportDir, '--bundle', '--sign-key', privateKey]);
    await run.waitFor(/tests done/);
    run.signal('SIGTERM');
    expect((await run.done).code).toBe(130);
    expect(await verified(join(reportDir, 'conformance-bundle.tar.gz'))).toMatch(/NOT CERTIFIED: .*interrupted/);
  });

  it('a run that could not run (verdict error: the target does not answer)', async () => {
    const reportDir = join(dir, 'error');
    const run = await runCli(['run', '--target', 'http://127.0.0.1:1', '--api-key', 'sk_test_unreachable_0123456789', '--report-dir', reportDir, '--bundle', '--sign-key', privateKey]);
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(await verified(join(reportDir, 'conformance-bundle.tar.gz'))).toMatch(/NOT CERTIFIED: .*the verdict is error/);
  });

  it('a run against the reference served on its own (`conformance reference` as --target): the target identifies itself as the reference', async () => {
    const reference = spawnCli(['reference', '--port', '0']);
    try {
      const { baseUrl, apiKeys } = JSON.parse(await reference.waitFor(/^\{/)) as { baseUrl: string; apiKeys: Record<string, string> };
      const reportDir = join(dir, 'reference-as-target');
      const run = await runCli(['run', '--rules', 'ENV-02', '--target', baseUrl, '--api-key', apiKeys.dev!, '--report-dir', reportDir, '--bundle', '--sign-key', privateKey]);
      const why = `the target identifies itself as the embedded reference (X-Conformance-Reference: ${SUITE_VERSION}), not a candidate`;
      expect(run.stdout, run.stderr).toContain(`  - ${why}`);
      const report = JSON.parse(readFileSync(join(reportDir, 'conformance.json'), 'utf8'));
      expect(report.target).toMatchObject({ embeddedReference: false, identifiesAsReference: SUITE_VERSION });
      expect(report.certification.reasons).toContainEqual({ code: 'identifies-as-reference', text: why });
      const out = await verified(join(reportDir, 'conformance-bundle.tar.gz'));
      expect(out).toContain(`    - ${why}`);
      expect(out).toContain(`  Target:         ${baseUrl} (identifies itself as the embedded reference ${SUITE_VERSION})`);
      expect(out).toMatch(/NOT CERTIFIED: .*\(rule-subset, identifies-as-reference/);
    } finally {
      reference.signal('SIGINT');
    }
    expect((await reference.done).code).toBe(0);
  });

  it('a container run: the image named in the configuration is part of what was signed', async () => {
    const report = certifiableReport();
    const settings = { ...structuredClone(DEFAULT_SETTINGS), target: { baseUrl: report.target.baseUrl, apiKey: 'sk_live_vendor_key', image: 'ghcr.io/acme/notifications:candidate', imagePort: 3000, imageEnv: { TOKEN: 'secret-value' } } };
    const files = bundleFiles({ report, junitXml: junitXml(report), settings });
    files.set(ATTESTATION_FILE, await signStatement(buildStatement(files), { kind: 'key', key: readSigningKey(privateKey) }));
    const result = certifyBundle(readBundle(writeArchive(join(dir, 'container.tar.gz'), files, new Date(0))), { kind: 'key', publicKey: readPublicKey(publicKey) });
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
  });
});
