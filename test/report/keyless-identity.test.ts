// Keyless verification matches the signer's identity exactly: `--certificate-identity …@refs/heads/main` refuses a
// certificate for `…@refs/heads/main-unreviewed` (a branch anyone with push access can name), and the output prints
// the SAN and issuer read from the verified certificate, not the ones asked for. Fulcio and Rekor cannot be reached
// offline: the Verifier's chain and log checks are stood in for (the signature is still checked against the
// certificate's key); the certificates are real X.509 with the SAN and the Fulcio issuer extension (keyless/*.pem,
// made with openssl, self-signed).
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Verifier } from '@sigstore/verify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { ATTESTATION_FILE, buildStatement } from '../../certify/attestation.ts';
import { bundleFiles, writeArchive } from '../../certify/bundle.ts';
import { readSigningKey, signStatement } from '../../certify/sign-attestation.ts';
import { junitXml } from '../../report/junit.ts';
import { certifiableReport, RELEASED_DIGEST } from './sample-report.ts';

type Entity = { key: { certificate?: { publicKey: Buffer; subjectAltName?: string; extension: (oid: string) => { value: Buffer } | undefined } }; signature: { verifySignature: (key: unknown) => boolean } };
// stands in for the chain to Fulcio's CA, the SCT and the Rekor entry; the signature and the identity are the certificate's
// (a spy on the shared class, not vi.mock: the harness project shares modules between files)
beforeAll(() => {
  vi.spyOn(Verifier.prototype, 'verify').mockImplementation(function (entity: unknown) {
    const cert = (entity as Entity).key.certificate!;
    if (!(entity as Entity).signature.verifySignature(createPublicKey({ key: cert.publicKey, format: 'der', type: 'spki' }))) throw new Error('signature verification failed');
    return { key: cert.publicKey, identity: { subjectAlternativeName: cert.subjectAltName, extensions: { issuer: cert.extension('1.3.6.1.4.1.57264.1.1')?.value.toString('ascii') } } } as unknown as ReturnType<Verifier['verify']>;
  });
});
afterAll(() => vi.restoreAllMocks());

const dir = mkdtempSync(join(tmpdir(), 'keyless-identity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fixture = (name: string) => new URL(`./keyless/${name}`, import.meta.url).pathname;
const WORKFLOW = 'https://github.com/acme/notifications/.github/workflows/certify.yml';
const ISSUER = 'https://token.actions.githubusercontent.com';
const derOf = (name: string) => Buffer.from(readFileSync(fixture(name), 'utf8').replace(/-----[^-]+-----|\s/g, ''), 'base64');
const root = join(dir, 'trusted_root.json');
writeFileSync(root, JSON.stringify({
  mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
  tlogs: [],
  certificateAuthorities: [{ subject: { organization: 'test', commonName: 'test' }, uri: 'https://ca.test', certChain: { certificates: [{ rawBytes: derOf('certificate-main.pem').toString('base64') }] }, validFor: { start: '2020-01-01T00:00:00Z' } }],
  ctlogs: [],
  timestampAuthorities: [],
}));

/** A bundle signed keyless by the certificate of `branch` (its key signs; the attestation carries the certificate). */
async function keylessBundle(branch: string): Promise<string> {
  const report = certifiableReport();
  const files = bundleFiles({ report, junitXml: junitXml(report), settings: { ...structuredClone(DEFAULT_SETTINGS), target: { baseUrl: report.target.baseUrl } } });
  const signed = JSON.parse(await signStatement(buildStatement(files), { kind: 'key', key: readSigningKey(fixture(`key-${branch}.pem`)) }));
  const der = derOf(`certificate-${branch}.pem`);
  signed.verificationMaterial = { certificate: { rawBytes: der.toString('base64') }, tlogEntries: [], timestampVerificationData: { rfc3161Timestamps: [] } };
  signed.dsseEnvelope.signatures = signed.dsseEnvelope.signatures.map((s: { sig: string }) => ({ sig: s.sig, keyid: '' }));
  files.set(ATTESTATION_FILE, JSON.stringify(signed));
  return writeArchive(join(dir, `${branch}.tar.gz`), files, new Date(0));
}

async function verify(file: string, identity: string): Promise<{ code: number; out: string }> {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    const code = await main(['verify-bundle', file, '--certificate-identity', identity, '--certificate-oidc-issuer', ISSUER, '--trusted-root', root, '--suite-digest', RELEASED_DIGEST], {});
    return { code, out: out.mock.calls.map((c) => String(c[0])).join('') };
  } finally {
    out.mockRestore();
  }
}

describe('keyless: the certificate identity matches exactly', () => {
  it('a certificate for the asked identity certifies, and the output names the SAN and issuer the certificate holds', async () => {
    const result = await verify(await keylessBundle('main'), `${WORKFLOW}@refs/heads/main`);
    expect(result.out).toContain(`Signature: verified, ${WORKFLOW}@refs/heads/main (issuer ${ISSUER})`);
    expect(result.out).toMatch(new RegExp(`^CERTIFIED: signed by ${WORKFLOW.replace(/[./]/g, '\\$&')}@refs/heads/main \\(issuer `, 'm'));
    expect(result.code).toBe(0);
  });

  it('a certificate for …@refs/heads/main-unreviewed does not verify as …@refs/heads/main, and the output names it', async () => {
    const result = await verify(await keylessBundle('main-unreviewed'), `${WORKFLOW}@refs/heads/main`);
    expect(result.out).toContain(`the certificate names ${WORKFLOW}@refs/heads/main-unreviewed (issuer ${ISSUER})`);
    expect(result.out).toMatch(/^INVALID: /m);
    expect(result.code).toBe(1);
  });

  it('an identity given as a pattern is not one: a dot or a star matches only itself', async () => {
    const result = await verify(await keylessBundle('main'), `${WORKFLOW}@refs/heads/.*`);
    expect(result.out).toMatch(/^INVALID: /m);
    expect(result.code).toBe(1);
  });
});
