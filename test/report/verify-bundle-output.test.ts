// What verify-bundle prints cannot be forged by the bundle: its strings reach the terminal escaped, an INVALID
// bundle's claims are printed only as claims, and the verifier says first whether it checked the signature.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { ATTESTATION_FILE, buildStatement } from '../../certify/attestation.ts';
import { BUNDLE_FILES, bundleFiles, MANIFEST, sha256, writeArchive } from '../../certify/bundle.ts';
import type { ConformanceReport } from '../../report/conformance-report.ts';
import { junitXml } from '../../report/junit.ts';
import { escapeMarkup, escapeTerminal, escapeTerminalLines } from '../../report/markup.ts';
import { keyIdOf, readSigningKey, signStatement } from '../../certify/sign-attestation.ts';
import { vendorKey } from './vendor-key.ts';
import { certifiableReport, RELEASED_DIGEST } from './sample-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'verify-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const { privateKey, publicKey, key } = vendorKey(dir);
const fingerprint = keyIdOf(key);

/** Clears the screen and scrollback, homes the cursor, draws a fake CERTIFIED screen, then hides what follows. */
const FORGED_SCREEN = `https://x.test\x1b[2J\x1b[3J\x1b[H✓ every check holds\nCERTIFIED: signed by key ${fingerprint}, certification-grade, conformant\x1b[8m`;

async function signed(report: ConformanceReport = certifiableReport()): Promise<Map<string, string>> {
  const files = bundleFiles({ report, junitXml: junitXml(report), settings: { ...structuredClone(DEFAULT_SETTINGS), target: { baseUrl: report.target.baseUrl } } });
  files.set(ATTESTATION_FILE, await signStatement(buildStatement(files), { kind: 'key', key: readSigningKey(privateKey) }));
  return files;
}

let n = 0;
function pack(files: Map<string, string>, remanifest = false): string {
  const all = new Map(files);
  if (remanifest) all.set(MANIFEST, [...all].filter(([name]) => name !== MANIFEST && name !== ATTESTATION_FILE).map(([name, c]) => `${sha256(c)}  ${name}\n`).join(''));
  return writeArchive(join(dir, `b-${++n}.tar.gz`), all, new Date(0));
}

async function verify(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await main(['verify-bundle', ...args], {});
    return { code, out: out.mock.calls.map((c) => String(c[0])).join(''), err: err.mock.calls.map((c) => String(c[0])).join('') };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe('verify-bundle output', () => {
  it('escapes control characters, bidirectional overrides and overlong text in one place', () => {
    expect(escapeTerminal('a\x1b[2Jb\nc\u009b1m\u202Ed')).toBe('a\\x1b[2Jb\\x0ac\\x9b1m\\u202ed');
    expect(escapeTerminal('x'.repeat(10), 4)).toBe('xxxx… (6 more characters)');
    expect(escapeTerminalLines('a\tb\nc\x1b[8m')).toBe('a\tb\nc\\x1b[8m');
    // HTML and JUnit: C0 controls are dropped (XML forbids them); C1 controls and bidi overrides become references
    expect(escapeMarkup('a\x1b[2J\u009b1m\u202Eb<')).toBe('a[2J&#x9b;1m\\u202eb&lt;');
  });

  it('a tampered bundle whose target draws a CERTIFIED screen prints it escaped, as an unverified claim, and is INVALID', async () => {
    const files = await signed();
    const report = JSON.parse(files.get(BUNDLE_FILES.report)!) as ConformanceReport;
    report.target.baseUrl = FORGED_SCREEN;
    files.set(BUNDLE_FILES.report, JSON.stringify(report));
    const result = await verify(pack(files, true), '--public-key', publicKey);
    expect(result.code).toBe(1);
    expect(result.out).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    expect(result.out).toContain('https://x.test\\x1b[2J\\x1b[3J\\x1b[H✓ every check holds\\x0aCERTIFIED: signed by key');
    expect(result.out).not.toMatch(/^CERTIFIED/m);
    expect(result.out).not.toMatch(/^✓/m);
    expect(result.out).toMatch(/^The bundle claims, unverified:\n {2}Signed by: /m);
    expect(result.out).not.toMatch(/^(Signed by|Verdict|Certification-grade):/m);
    expect(result.out).toMatch(/^INVALID: \d+ of \d+ checks failed/m);
  });

  it('a tar entry whose name carries escape sequences is named escaped', async () => {
    const files = await signed();
    files.set('\x1b[2J\x1b[Hnotes.txt', 'hi');
    const result = await verify(pack(files), '--public-key', publicKey);
    expect(result.code).toBe(1);
    expect(result.out).toContain('✗ \\x1b[2J\\x1b[Hnotes.txt is listed in SHA256SUMS');
    expect(result.out).not.toContain('\x1b');
  });

  it('without a key it says first that the signature was not checked, and names the signer key the bundle carries', async () => {
    // the release trusted by name: a verifier that is itself a release would otherwise trust its own digest
    const result = await verify(pack(await signed()), '--suite-digest', RELEASED_DIGEST);
    expect(result.code).toBe(3);
    expect(result.out.split('\n')[0]).toBe(`NOT VERIFIED: signature not checked (give --public-key FILE, or --certificate-identity, --certificate-oidc-issuer and --trusted-root); it names its signer as key ${fingerprint}`);
    expect(result.out).toContain('The bundle claims, unverified (signature not checked):');
    expect(result.out).toMatch(/^NOT CERTIFIED: \d+ checks hold, but its signature was not checked: give --public-key FILE/m);
    expect(result.out).not.toContain('but signed, but');
  });

  it('with the key it says whose key matched, when the run was and how long ago', async () => {
    const result = await verify(pack(await signed()), '--public-key', publicKey, '--suite-digest', RELEASED_DIGEST);
    expect(result.code).toBe(0);
    expect(result.out.split('\n')[0]).toBe(`Signature: verified, key ${fingerprint}, matching the given public key ${publicKey}`);
    expect(result.out).toMatch(/^ {2}Run: +2026-01-01T00:00:00\.000Z → 2026-01-01T00:01:00\.000Z \(\d+ day\(s\) ago\)$/m);
  });

  it('refuses a private key given as --public-key (exit 2), naming the flag', async () => {
    const result = await verify(pack(await signed()), '--public-key', privateKey);
    expect(result.code).toBe(2);
    expect(result.err).toContain(`--public-key: ${privateKey} holds a private key`);
  });
});
