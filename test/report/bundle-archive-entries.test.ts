// What verify-bundle checks is exactly what `tar -xzf` and Python's tarfile unpack: an entry the tar library would
// skip (an unknown or ignored type flag), a meta record other than a long name, or a pax size that disagrees with
// its header makes a genuine signed bundle INVALID. Each attack is first shown to work on GNU tar and tarfile: they
// unpack a forged, self-consistent conformance.json, junit.xml and SHA256SUMS over the signed ones.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { ATTESTATION_FILE, buildStatement } from '../../certify/attestation.ts';
import { BUNDLE_FILES, bundleFiles, MANIFEST, sha256, writeArchive } from '../../certify/bundle.ts';
import { readSigningKey, signStatement } from '../../certify/sign-attestation.ts';
import { junitXml } from '../../report/junit.ts';
import { vendorKey } from './vendor-key.ts';
import { certifiableReport, RELEASED_DIGEST } from './sample-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'bundle-entries-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { privateKey, publicKey } = vendorKey(dir);
const tools = spawnSync('tar', ['--version']).status === 0 && spawnSync('python3', ['--version']).status === 0;

/** One 512-byte ustar header; `size` is what the header says, whatever follows. */
function header(name: string, size: number, type: string): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0);
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write(type, 156);
  h.write('ustar\x0000', 257);
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}
const padded = (data: Buffer) => Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
const entry = (name: string, content: Buffer, type = '0') => Buffer.concat([header(name, content.length, type), padded(content)]);
const pax = (records: Record<string, string>) => {
  const body = Object.entries(records).map(([k, v]) => {
    const text = ` ${k}=${v}\n`;
    let length = text.length + 1;
    while (`${length}${text}`.length !== length) length++;
    return `${length}${text}`;
  }).join('');
  return entry('PaxHeader', Buffer.from(body), 'x');
};

/** The forged files, self-consistent: a report that says conformant, and SHA256SUMS over them. */
function forgedFiles(): Map<string, Buffer> {
  const report = { ...certifiableReport(), summary: { ...certifiableReport().summary, verdict: 'conformant' as const }, forged: true };
  const files = new Map<string, Buffer>([[BUNDLE_FILES.report, Buffer.from(JSON.stringify(report))], [BUNDLE_FILES.junit, Buffer.from('<testsuites forged="yes"/>')]]);
  files.set(MANIFEST, Buffer.from([...files].map(([n, c]) => `${sha256(c)}  ${n}\n`).join('')));
  return files;
}

async function signedTar(): Promise<Buffer> {
  const report = certifiableReport();
  const files = bundleFiles({ report, junitXml: junitXml(report), settings: { ...structuredClone(DEFAULT_SETTINGS), target: { baseUrl: report.target.baseUrl } } });
  files.set(ATTESTATION_FILE, await signStatement(buildStatement(files), { kind: 'key', key: readSigningKey(privateKey) }));
  return gunzipSync(readFileSync(writeArchive(join(dir, `signed-${Date.now()}.tar.gz`), files, new Date(0))));
}

/** The signed archive's entries, then `extra`, then the end-of-archive marker and zeros to a 10 KiB record. */
async function withEntries(name: string, extra: Buffer): Promise<string> {
  const tar = await signedTar();
  let end = 0;
  while (tar.subarray(end, end + 512).some((b) => b !== 0)) end += 512 + Math.ceil(parseInt(tar.subarray(end + 124, end + 136).toString('latin1'), 8) / 512) * 512;
  const body = Buffer.concat([tar.subarray(0, end), extra, Buffer.alloc(1024)]);
  const path = join(dir, `${name}.tar.gz`);
  writeFileSync(path, gzipSync(Buffer.concat([body, Buffer.alloc((10240 - (body.length % 10240)) % 10240)])));
  return path;
}

async function verify(path: string): Promise<{ code: number; out: string }> {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    const code = await main(['verify-bundle', path, '--public-key', publicKey, '--suite-digest', RELEASED_DIGEST], {});
    return { code, out: out.mock.calls.map((c) => String(c[0])).join('') };
  } finally {
    out.mockRestore();
  }
}

/** What GNU tar and Python's tarfile leave in a folder after unpacking the bundle: conformance.json as they see it. */
function unpacked(path: string): { gnu: string; python: string } {
  const gnu = join(dir, `gnu-${Date.now()}`);
  const py = join(dir, `py-${Date.now()}`);
  mkdirSync(gnu);
  mkdirSync(py);
  spawnSync('tar', ['-xzf', path, '-C', gnu]);
  execFileSync('python3', ['-c', 'import sys,tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])', path, py]);
  const read = (d: string) => { try { return readFileSync(join(d, BUNDLE_FILES.report), 'utf8'); } catch { return ''; } };
  return { gnu: read(gnu), python: read(py) };
}

const forgedEntries = (type: string) => Buffer.concat([...forgedFiles()].map(([name, content]) => entry(name, content, type)));

describe('every byte of the archive is accounted for', () => {
  it('the genuine signed bundle is CERTIFIED', async () => {
    const path = await withEntries('genuine', Buffer.alloc(0));
    expect((await verify(path)).code).toBe(0);
  });

  for (const [type, what] of [['Z', 'an unknown type flag'], ['V', 'a tape volume header (a type node-tar ignores)'], ['7', 'a contiguous file'], ['\0', 'an old-style regular file']] as const) {
    it(`forged files in entries of ${what} (type ${JSON.stringify(type)}) make the bundle INVALID`, async () => {
      const path = await withEntries(`type-${type.charCodeAt(0)}`, forgedEntries(type));
      const result = await verify(path);
      expect(result.out).toMatch(new RegExp(`^✗ the bundle is a readable tar.gz archive \\(an entry at byte \\d+ of tar type`, 'm'));
      expect(result.out).toMatch(/^INVALID: /m);
      expect(result.code).toBe(1);
    });
  }

  it.skipIf(!tools)('GNU tar and tarfile unpack the forged conformance.json of an unknown type flag (the attack is real)', async () => {
    const seen = unpacked(await withEntries('type-Z-cross', forgedEntries('Z')));
    expect(seen.gnu).toContain('"forged":true');
    expect(seen.python).toContain('"forged":true');
  });

  it('a pax header with another record than the long name (a global one, or mtime) makes the bundle INVALID', async () => {
    const global = await verify(await withEntries('pax-global', Buffer.concat([header('GlobalHead', 0, 'g'), entry('extra.txt', Buffer.from('x'))])));
    expect(global.out).toMatch(/of tar type "g"/);
    expect(global.code).toBe(1);
    const mtime = await verify(await withEntries('pax-mtime', Buffer.concat([pax({ mtime: '1' }), entry('extra.txt', Buffer.from('x'))])));
    expect(mtime.out).toMatch(/the pax header at byte \d+ carries "mtime"/);
    expect(mtime.code).toBe(1);
  });

  it('a pax size that disagrees with the ustar size (an entry hidden from one reader) makes the bundle INVALID', async () => {
    const [name, content] = [...forgedFiles()][0]!;
    // the header says 0 bytes, the pax record the forged file's length: readers disagree where the next entry starts
    const hidden = Buffer.concat([pax({ size: String(content.length) }), header(`x${name}`, 0, '0'), padded(content)]);
    const result = await verify(await withEntries('pax-size', hidden));
    expect(result.out).toMatch(/is 0 bytes by its header and \d+ by the pax record before it/);
    expect(result.code).toBe(1);
  });

  it('a long name in a pax header naming one file is still read', async () => {
    const result = await verify(await withEntries('pax-path', Buffer.concat([pax({ path: 'notes.txt' }), entry('n', Buffer.from('a note'))])));
    // the archive is read; notes.txt is then an unlisted file, which the manifest check names
    expect(result.out).toMatch(/✗ notes\.txt is listed in SHA256SUMS/);
    expect(result.out).not.toMatch(/readable tar\.gz archive/);
  });
});
