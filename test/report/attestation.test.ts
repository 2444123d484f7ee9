// A signed bundle cannot be fooled by editing: the signature is checked with @sigstore/verify, then the signed
// subjects against the files, then the bundle's consistency. Every kind of tampering is rejected; an unsigned
// bundle is "unsigned", never certified.
import { REQUIREMENTS } from '../../requirements/index.ts';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { ATTESTATION_FILE, buildStatement } from '../../certify/attestation.ts';
import { BUNDLE_FILES, bundleFiles, MANIFEST, sha256, writeArchive } from '../../certify/bundle.ts';
import { redactSettings } from '../../report/redacted-settings.ts';
import { certifyBundle } from '../../certify/certify-bundle.ts';
import { DECISIVE_LOAD_SCENARIOS } from '../../certify/load-plan.ts';
import type { ConformanceReport } from '../../report/conformance-report.ts';
import { junitXml } from '../../report/junit.ts';
import { readSigningKey, signStatement } from '../../certify/sign-attestation.ts';
import { readPublicKey, readTrustedRoots, type TrustPolicy } from '../../certify/verify-attestation.ts';
import { readBundle } from '../../certify/verify-bundle.ts';
import { runCli } from '../hostile/run-cli.ts';
import { certifiableReport, RELEASED_DIGEST, sampleRecords, sampleReport } from './sample-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'attestation-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function keyPair(name: string, type: 'ec' | 'ed25519'): { privateKey: string; publicKey: string } {
  const pair = type === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
  const privateKey = join(dir, `${name}.pem`);
  const publicKey = join(dir, `${name}.pub`);
  writeFileSync(privateKey, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(publicKey, pair.publicKey.export({ type: 'spki', format: 'pem' }));
  return { privateKey, publicKey };
}

const vendor = keyPair('vendor-ec', 'ec');
const vendorEd = keyPair('vendor-ed', 'ed25519');
const forger = keyPair('forger', 'ec');
const keyPolicy = (file: string): TrustPolicy => ({ kind: 'key', publicKey: readPublicKey(file) });

function unsignedFiles(report: ConformanceReport = certifiableReport()): Map<string, string> {
  const records = sampleRecords();
  return bundleFiles({
    report,
    junitXml: junitXml(report),
    settings: { ...structuredClone(DEFAULT_SETTINGS), target: { baseUrl: report.target.baseUrl, apiKey: 'sk_live_vendor_key' } },
    // a full load of every scenario that can fail over the limit, against the run's target: what certification needs
    loadJson: { format: 'notification-api-conformance/load', profile: 'full', target: { ...report.target }, expectedRps: report.target.declared?.triggerRps ?? 600, verdicts: [], timelines: DECISIVE_LOAD_SCENARIOS.map((scenario) => ({ scenario, engine: 'node', target: report.target.baseUrl, plan: { phases: [] }, routes: {} })) },
  });
}

async function signedFiles(keyFile = vendor.privateKey, report?: ConformanceReport): Promise<Map<string, string>> {
  const files = unsignedFiles(report);
  files.set(ATTESTATION_FILE, await signStatement(buildStatement(files), { kind: 'key', key: readSigningKey(keyFile) }));
  return files;
}

/** SHA256SUMS recomputed over the files, as a forger would. */
function remanifest(files: Map<string, string>): Map<string, string> {
  const all = new Map(files);
  all.set(MANIFEST, [...all].filter(([n]) => n !== MANIFEST && n !== ATTESTATION_FILE).map(([n, c]) => `${sha256(c)}  ${n}\n`).join(''));
  return all;
}

let packed = 0;
/** Writes the files as a bundle; `withNewManifest` recomputes SHA256SUMS first. */
function pack(files: Map<string, string>, withNewManifest = false): string {
  const all = withNewManifest ? remanifest(files) : new Map(files);
  const file = join(dir, `bundle-${++packed}.tar.gz`);
  return writeArchive(file, all, new Date(0));
}

/** junit.xml carries the verdict and the certification grade: an edited report no longer gives it. */
const JUNIT_DIFFERS = expect.stringMatching(/^junit\.xml is what conformance\.json gives \(it differs/);
/** The verifier trusts the release the certifiable reports name (as --suite-digest would). */
const RELEASE = { digest: RELEASED_DIGEST, source: 'given with --suite-digest' };
const verify = (file: string, policy: TrustPolicy) => certifyBundle(readBundle(file), policy, RELEASE);
const failed = (file: string, policy: TrustPolicy) => verify(file, policy).checks.filter((c) => !c.ok).map((c) => c.what);
const editJson = (files: Map<string, string>, name: string, edit: (doc: any) => void) => {
  const doc = JSON.parse(files.get(name)!);
  edit(doc);
  files.set(name, `${JSON.stringify(doc, null, 2)}\n`);
};

describe('signed attestation', () => {
  it.each([
    ['ECDSA P-256', vendor],
    ['Ed25519', vendorEd],
  ])('a bundle signed with a generated %s key verifies with its public key and is certified', async (_, keys) => {
    const files = await signedFiles(keys.privateKey);
    const sigstore = JSON.parse(files.get(ATTESTATION_FILE)!);
    expect(sigstore.mediaType).toBe('application/vnd.dev.sigstore.bundle.v0.3+json');
    expect(sigstore.dsseEnvelope.payloadType).toBe('application/vnd.in-toto+json');
    const statement = JSON.parse(Buffer.from(sigstore.dsseEnvelope.payload, 'base64').toString());
    expect(statement.subject.map((s: { name: string }) => s.name)).toEqual([...files.keys()].filter((n) => n !== ATTESTATION_FILE).sort());
    expect(statement.predicate).toMatchObject({
      suite: { name: 'notification-api-conformance' },
      spec: { version: '3.19.2' },
      target: { baseUrl: 'https://candidate.example.test', declared: { idempotency: true, rateLimiting: true } },
      summary: { verdict: 'conformant' },
      certification: { certificationGrade: true, reasons: [] },
    });
    expect(statement.predicate.requirements).toHaveLength(REQUIREMENTS.length);
    expect(JSON.stringify(statement)).not.toContain('sk_live_vendor_key');
    const result = verify(pack(files), keyPolicy(keys.publicKey));
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    expect(result.status).toBe('certified');
  });

  it('rejects the forgery of the issue: target.baseUrl edited, SHA256SUMS recomputed, tarred again', async () => {
    const files = await signedFiles();
    editJson(files, BUNDLE_FILES.report, (r) => (r.target.baseUrl = 'https://api.other-vendor.test'));
    const forged = pack(files, true);
    expect(failed(forged, keyPolicy(vendor.publicKey))).toEqual(['every file matches its signed SHA-256 (not SHA256SUMS, conformance.json)', expect.stringContaining('the signed predicate'), 'the certification grade is what the report and configuration give (stated certification-grade, recomputed not certification-grade: load-plan)', expect.stringContaining("the load summary measured the report's target (the report is about https://api.other-vendor.test")]);
    expect(verify(forged, keyPolicy(vendor.publicKey)).status).toBe('invalid');
    // Without a key the signature is not checked, but the signed subjects still disagree with the files.
    expect(verify(forged, { kind: 'none' }).status).toBe('invalid');
  });

  it('rejects an edited verdict, even with the summary made to match', async () => {
    const files = await signedFiles(vendor.privateKey, sampleReport());
    editJson(files, BUNDLE_FILES.report, (r) => {
      r.requirements.find((x: { id: string }) => x.id === 'AUTH-03').verdict = 'pass';
      r.requirements.find((x: { id: string }) => x.id === 'AUTH-03').tests = [];
    });
    expect(failed(pack(files, true), keyPolicy(vendor.publicKey))).toEqual(expect.arrayContaining(['every file matches its signed SHA-256 (not SHA256SUMS, conformance.json)']));
  });

  it('rejects a file added to the bundle and a file removed from it', async () => {
    const added = await signedFiles();
    added.set('notes.txt', 'certified by us');
    expect(failed(pack(added, true), keyPolicy(vendor.publicKey))).toEqual(['every file of the bundle is a signed subject (not notes.txt)', 'every file matches its signed SHA-256 (not SHA256SUMS)']);
    const removed = await signedFiles();
    removed.delete(BUNDLE_FILES.loadSummary);
    expect(failed(pack(removed, true), keyPolicy(vendor.publicKey))).toEqual(['every file matches its signed SHA-256 (not SHA256SUMS)', 'every signed subject is in the bundle (missing load-summary.json)']);
  });

  it('rejects an edited statement (the signature no longer covers it)', async () => {
    const files = await signedFiles(vendor.privateKey, sampleReport());
    editJson(files, ATTESTATION_FILE, (b) => {
      const statement = JSON.parse(Buffer.from(b.dsseEnvelope.payload, 'base64').toString());
      statement.predicate.summary.verdict = 'conformant';
      b.dsseEnvelope.payload = Buffer.from(JSON.stringify(statement)).toString('base64');
    });
    expect(failed(pack(files), keyPolicy(vendor.publicKey))).toEqual([
      expect.stringMatching(/^the signature verifies with the given public key \(ECDSA P-256, key [0-9a-f]{16}…\): signature verification failed$/),
      expect.stringContaining('the signed predicate'),
    ]);
  });

  it('rejects an edited signature', async () => {
    const files = await signedFiles();
    editJson(files, ATTESTATION_FILE, (b) => {
      const sig = Buffer.from(b.dsseEnvelope.signatures[0].sig, 'base64');
      sig[sig.length - 1]! ^= 0x01;
      b.dsseEnvelope.signatures[0].sig = sig.toString('base64');
    });
    expect(failed(pack(files), keyPolicy(vendor.publicKey))).toEqual([expect.stringContaining('signature verification failed')]);
  });

  it('rejects a bundle re-signed with another key, and a signed bundle whose attestation was stripped', async () => {
    const edited = unsignedFiles();
    editJson(edited, BUNDLE_FILES.report, (r) => (r.target.baseUrl = 'https://api.other-vendor.test'));
    editJson(edited, BUNDLE_FILES.loadSummary, (l) => (l.target.baseUrl = 'https://api.other-vendor.test'));
    const files = remanifest(edited);
    files.set(ATTESTATION_FILE, await signStatement(buildStatement(files), { kind: 'key', key: readSigningKey(forger.privateKey) }));
    expect(failed(pack(files), keyPolicy(vendor.publicKey))).toEqual([expect.stringContaining('signature verification failed')]);
    expect(verify(pack(files), keyPolicy(forger.publicKey)).status).toBe('certified'); // only the vendor's key tells them apart
    const stripped = await signedFiles();
    stripped.delete(ATTESTATION_FILE);
    expect(failed(pack(stripped), keyPolicy(vendor.publicKey))).toEqual(['the bundle carries a signed attestation (attestation.sigstore.json)']);
  });

  it('rejects a signed statement of another run replayed into this bundle', async () => {
    const other = await signedFiles(vendor.privateKey, sampleReport());
    const files = await signedFiles();
    files.set(ATTESTATION_FILE, other.get(ATTESTATION_FILE)!);
    expect(failed(pack(files), keyPolicy(vendor.publicKey))).toEqual(expect.arrayContaining([expect.stringMatching(/^every file matches its signed SHA-256 \(not /), expect.stringContaining('the signed predicate')]));
  });

  it('an unsigned bundle of a certifiable run verifies as unsigned, never as certified', () => {
    const result = verify(pack(unsignedFiles()), { kind: 'none' });
    expect(result.checks.filter((c) => !c.ok)).toEqual([]);
    expect(result.status).toBe('not-certified');
    expect(result.notCertifiedBecause).toEqual(['unsigned: nothing proves who produced it']);
  });

  it('a signed bundle checked without a key is not certified: the signature was not checked', async () => {
    const result = verify(pack(await signedFiles()), { kind: 'none' });
    expect(result.status).toBe('not-certified');
    expect(result.notCertifiedBecause[0]).toMatch(/^its signature was not checked: give --public-key/);
  });

  it('a signed, intact bundle of a run that is not certification-grade is not certified, and says why', async () => {
    const result = verify(pack(await signedFiles(vendor.privateKey, sampleReport())), keyPolicy(vendor.publicKey));
    expect(result.status).toBe('not-certified');
    expect(result.notCertifiedBecause).toEqual(['the run is not certification-grade (embedded-reference, reference-fault, unreleased-suite)', 'the verdict is non-conformant']);
  });

  it('rejects a certification grade flipped by hand in an unsigned bundle', () => {
    const files = unsignedFiles(sampleReport());
    editJson(files, BUNDLE_FILES.report, (r) => (r.certification = { certificationGrade: true, reasons: [] }));
    expect(failed(pack(files, true), { kind: 'none' })).toEqual([expect.stringMatching(/^the certification grade is what the report and configuration give \(stated certification-grade, recomputed not certification-grade: embedded-reference/), JUNIT_DIFFERS]);
  });
});

describe('verify-bundle and run --sign-key on the command line', () => {
  async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const code = await main(args, env);
      return { code, out: out.mock.calls.map((c) => String(c[0])).join(''), err: err.mock.calls.map((c) => String(c[0])).join('') };
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  }

  it('exits 0 CERTIFIED, 1 INVALID on tampering or the wrong key, 3 for an intact bundle that certifies nothing', async () => {
    const good = pack(await signedFiles());
    const certified = await cli(['verify-bundle', good, '--public-key', vendor.publicKey, '--suite-digest', RELEASED_DIGEST]);
    expect(certified.code).toBe(0);
    expect(certified.out).toMatch(/^CERTIFIED: signed by key [0-9a-f]{64}, certification-grade, conformant/m);
    expect(certified.out).toContain('Certification-grade: yes');
    const wrongKey = await cli(['verify-bundle', good, '--public-key', forger.publicKey]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.out).toMatch(/^Signature: does NOT verify with the given public key /m);
    // the release trusted by name: a verifier that is itself a release would otherwise trust its own digest
    const unsigned = await cli(['verify-bundle', pack(unsignedFiles()), '--suite-digest', RELEASED_DIGEST]);
    expect(unsigned.code).toBe(3);
    expect(unsigned.out).toMatch(/^NOT CERTIFIED: \d+ checks hold, but unsigned: nothing proves who produced it/m);
  });

  it('names a bad --public-key and conflicting trust flags (exit 2)', async () => {
    const good = pack(await signedFiles());
    writeFileSync(join(dir, 'garbage.pub'), 'not a key');
    expect(await cli(['verify-bundle', good, '--public-key', join(dir, 'garbage.pub')])).toMatchObject({ code: 2, err: expect.stringContaining('--public-key: ') });
    expect(await cli(['verify-bundle', good, '--public-key', vendor.publicKey, '--certificate-identity', 'x'])).toMatchObject({ code: 2 });
    expect(await cli(['verify-bundle', good, '--certificate-identity', 'https://github.com/acme/x/.github/workflows/c.yml@refs/heads/main', '--certificate-oidc-issuer', 'https://token.actions.githubusercontent.com']))
      .toMatchObject({ code: 2, err: expect.stringContaining('--trusted-root FILE') });
  });

  it('reads a trusted root as JSON or as `gh attestation trusted-root` JSON lines, and names a bad one', () => {
    const json = join(dir, 'root.json');
    const jsonl = join(dir, 'roots.jsonl');
    writeFileSync(json, JSON.stringify(TEST_TRUSTED_ROOT, null, 2));
    writeFileSync(jsonl, `${JSON.stringify(TEST_TRUSTED_ROOT)}\n${JSON.stringify(TEST_TRUSTED_ROOT)}\n`);
    expect(readTrustedRoots(json)).toHaveLength(1);
    expect(readTrustedRoots(jsonl)).toHaveLength(2);
    writeFileSync(join(dir, 'no-ca.json'), JSON.stringify({ ...TEST_TRUSTED_ROOT, certificateAuthorities: [] }));
    expect(() => readTrustedRoots(join(dir, 'no-ca.json'))).toThrow(/--trusted-root: .*no-ca\.json is not a Sigstore trusted root \(no certificate authority in it\)/);
    writeFileSync(join(dir, 'garbage-root.json'), 'not json\n{');
    expect(() => readTrustedRoots(join(dir, 'garbage-root.json'))).toThrow(/--trusted-root: .*garbage-root\.json is not a Sigstore trusted root/);
  });

  it('a key-signed bundle checked as keyless says so', async () => {
    const root = join(dir, 'trusted_root.json');
    writeFileSync(root, JSON.stringify(TEST_TRUSTED_ROOT));
    const result = await cli(['verify-bundle', pack(await signedFiles()), '--certificate-identity', 'https://github.com/acme/x/.github/workflows/c.yml@refs/heads/main', '--certificate-oidc-issuer', 'https://token.actions.githubusercontent.com', '--trusted-root', root]);
    expect(result.code).toBe(1);
    expect(result.out).toContain('the attestation was signed with a key; verify it with --public-key');
  });

  it('`conformance bundle` packages and signs a report dir after the run (and load), and refuses a dir without a run', async () => {
    const reportDir = mkdtempSync(join(dir, 'reports-'));
    expect(await cli(['bundle', '--report-dir', reportDir, '--sign-key', vendor.privateKey])).toMatchObject({ code: 2, err: expect.stringContaining('holds no complete run (missing conformance.json, junit.xml, configuration.json)') });
    const report = certifiableReport();
    writeFileSync(join(reportDir, 'conformance.json'), JSON.stringify(report));
    writeFileSync(join(reportDir, 'junit.xml'), junitXml(report));
    writeFileSync(join(reportDir, 'configuration.json'), JSON.stringify(redactSettings({ ...structuredClone(DEFAULT_SETTINGS), target: { baseUrl: report.target.baseUrl, apiKey: 'sk_live_vendor_key' } })));
    const out = join(dir, 'from-dir.tar.gz');
    expect(await cli(['bundle', '--report-dir', reportDir, '--sign-key', vendor.privateKey, '--out', out])).toMatchObject({ code: 0, out: `Bundle: ${out} (signed: attestation.sigstore.json)\n` });
    expect(await cli(['verify-bundle', out, '--public-key', vendor.publicKey, '--suite-digest', RELEASED_DIGEST])).toMatchObject({ code: 0, out: expect.stringContaining('CERTIFIED: ') });
  });

  it('run --bundle --sign-key signs a real run; its verification shows the run is not certification-grade, and why', async () => {
    const reportDir = mkdtempSync(join(dir, 'run-'));
    // why: a rule with tests of its own: one checked on every exchange (ENV-01) runs every suite for its traffic
    const run = await runCli(['run', '--rules', 'ENV-02', '--report-dir', reportDir, '--bundle', '--sign-key', vendorEd.privateKey]);
    expect(run.code, run.stdout + run.stderr).toBe(3); // incomplete: the other MUST rules were not among --rules
    expect(run.stdout).toContain('(signed: attestation.sigstore.json)');
    const verified = await runCli(['verify-bundle', join(reportDir, 'conformance-bundle.tar.gz'), '--public-key', vendorEd.publicKey]);
    expect(verified.code, verified.stdout).toBe(3);
    expect(verified.stdout).not.toContain('✗');
    expect(verified.stdout).toContain('✓ the signature verifies with the given public key (Ed25519');
    expect(verified.stdout).toContain('  - only a subset of the rules ran (--rules ENV-02)');
    expect(verified.stdout).toContain('  - the target is the embedded reference implementation, not a candidate');
    expect(verified.stdout).toMatch(/^NOT CERTIFIED: \d+ checks hold, but the run is not certification-grade \(rule-subset, embedded-reference[^)]*\); the verdict is incomplete/m);
  });

  it('rejects unusable signing keys before the run starts, naming the file', async () => {
    const rsa = join(dir, 'rsa.pem');
    writeFileSync(rsa, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const encrypted = join(dir, 'encrypted.pem');
    writeFileSync(encrypted, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' }));
    const p384 = join(dir, 'p384.pem');
    writeFileSync(p384, generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const reportDir = join(dir, 'never-written');
    for (const [file, message] of [
      [rsa, `--sign-key: ${rsa} is a rsa key; use ECDSA P-256 or Ed25519`],
      [p384, `--sign-key: ${p384} is a ec secp384r1 key; use ECDSA P-256 or Ed25519`],
      [encrypted, `--sign-key: ${encrypted} is not an unencrypted PEM private key`],
      [join(dir, 'absent.pem'), `--sign-key: cannot read ${join(dir, 'absent.pem')} (ENOENT)`],
    ]) {
      const result = await cli(['run', '--bundle', '--sign-key', file!, '--report-dir', reportDir]);
      expect(result.code).toBe(2);
      expect(result.err).toContain(message);
    }
    expect(await cli(['run', '--sign-key', vendor.privateKey, '--report-dir', reportDir])).toMatchObject({ code: 2, err: expect.stringContaining('add --bundle') });
    expect(() => readFileSync(join(reportDir, 'conformance.json'))).toThrow();
  });
});

/** A syntactically valid trusted root with one (self-made) certificate authority: enough to reach the key check. */
const TEST_TRUSTED_ROOT = {
  mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
  tlogs: [],
  certificateAuthorities: [{ subject: { organization: 'test', commonName: 'test' }, uri: 'https://ca.test', certChain: { certificates: [{ rawBytes: Buffer.from('not a certificate').toString('base64') }] }, validFor: { start: '2020-01-01T00:00:00Z' } }],
  ctlogs: [],
  timestampAuthorities: [],
};
