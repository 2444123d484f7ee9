// verify-bundle reads any input in bounded time and memory: each hostile archive below is refused with the cap or
// the defect named (vitest's timeout is the hang guard; no wall-clock limit is asserted), and data placed after the
// end of a signed archive — where `tar -xzif` would extract it — makes the bundle INVALID.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, deflateRawSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { ATTESTATION_FILE, buildStatement } from '../../certify/attestation.ts';
import { ARCHIVE_LIMITS } from '../../certify/bounded-archive.ts';
import { BUNDLE_FILES, bundleFiles, writeArchive } from '../../certify/bundle.ts';
import { junitXml } from '../../report/junit.ts';
import { readSigningKey, signStatement } from '../../certify/sign-attestation.ts';
import { vendorKey } from './vendor-key.ts';
import { certifiableReport, RELEASED_DIGEST } from './sample-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'bundle-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const { privateKey, publicKey } = vendorKey(dir);
const MiB = 1024 * 1024;

let n = 0;
const file = (content: Buffer) => {
  const path = join(dir, `hostile-${++n}.tar.gz`);
  writeFileSync(path, content);
  return path;
};

async function signedBundle(): Promise<string> {
  const report = certifiableReport();
  const files = bundleFiles({ report, junitXml: junitXml(report), settings: { ...structuredClone(DEFAULT_SETTINGS), target: { baseUrl: report.target.baseUrl } } });
  files.set(ATTESTATION_FILE, await signStatement(buildStatement(files), { kind: 'key', key: readSigningKey(privateKey) }));
  return writeArchive(join(dir, `signed-${++n}.tar.gz`), files, new Date(0));
}

/** A tar of one file, as `tar` writes it: header, data, end-of-archive marker, zeros to the 10 KiB record. */
function tarOf(name: string, content: Buffer): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0);
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${content.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\x0000', 257);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const body = Buffer.concat([header, content, Buffer.alloc((512 - (content.length % 512)) % 512), Buffer.alloc(1024)]);
  return Buffer.concat([body, Buffer.alloc((10240 - (body.length % 10240)) % 10240)]);
}

/**
 * A gzip member whose data is `head` then `zeroMiB` MiB of zeros, built without ever holding the zeros: one
 * compressed MiB of zeros (flushed, so blocks can follow it) repeated. The trailer's CRC is not computed.
 */
function gzipBomb(head: Buffer, zeroMiB: number): Buffer {
  const flushed = (data: Buffer) => deflateRawSync(data, { finishFlush: constants.Z_SYNC_FLUSH, level: 9 });
  const zeros = flushed(Buffer.alloc(MiB));
  const size = head.length + zeroMiB * MiB;
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  return Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), flushed(head), ...Array<Buffer>(zeroMiB).fill(zeros), deflateRawSync(Buffer.alloc(0)), trailer]);
}

async function verify(path: string, ...flags: string[]): Promise<{ code: number; out: string }> {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    const code = await main(['verify-bundle', path, ...flags], {});
    return { code, out: out.mock.calls.map((c) => String(c[0])).join('') };
  } finally {
    out.mockRestore();
  }
}

async function refused(path: string, why: string | RegExp): Promise<void> {
  const result = await verify(path, '--public-key', publicKey);
  expect(result.code, result.out).toBe(1);
  expect(result.out).toMatch(/^INVALID: /m);
  expect(result.out).toMatch(typeof why === 'string' ? new RegExp(why.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : why);
}

describe('hostile archives are refused, naming the cap or the defect', () => {
  it('the caps are those the documentation states', () => {
    expect(ARCHIVE_LIMITS).toEqual({ compressedBytes: 16 * MiB, uncompressedBytes: 64 * MiB, entries: 32, entryBytes: 32 * MiB });
  });

  it('a 32 KB gzip of 32 MiB of zeros', async () => {
    await refused(file(gzipSync(Buffer.alloc(32 * MiB))), `${32 * MiB - 1024} byte(s) follow the end-of-archive marker`);
  });

  it('a certified bundle with 32 MiB of zeros appended to the file, and with 8 MiB', async () => {
    const path = await signedBundle();
    expect((await verify(path, '--public-key', publicKey, '--suite-digest', RELEASED_DIGEST)).code).toBe(0);
    const eight = file(Buffer.concat([readFileSync(path), Buffer.alloc(8 * MiB)]));
    appendFileSync(path, Buffer.alloc(32 * MiB));
    await refused(path, 'over the 16 MiB a bundle may take (compressed)');
    await refused(eight, `${8 * MiB} byte(s) follow the gzip stream`);
  });

  it('a 2 MB bomb holding a 2 GiB conformance.json', async () => {
    const header = tarOf(BUNDLE_FILES.report, Buffer.alloc(0)).subarray(0, 512);
    header.write(`${(2 * 1024 * MiB).toString(8).padStart(11, '0')}\0`, 124);
    await refused(file(gzipBomb(header, 2048)), 'it inflates to more than the 64 MiB a bundle may take (uncompressed)');
  });

  it('2 GiB of zeros after a valid bundle, inside its gzip stream', async () => {
    const tar = gunzipSync(readFileSync(await signedBundle()));
    await refused(file(gzipBomb(tar, 2048)), 'it inflates to more than the 64 MiB a bundle may take (uncompressed)');
  });

  it('an archive of 200,000 entries, and one of 33', async () => {
    const empty = tarOf('a', Buffer.alloc(0)).subarray(0, 512);
    await refused(file(gzipSync(Buffer.concat([...Array<Buffer>(200_000).fill(empty), Buffer.alloc(1024)]))), 'it inflates to more than the 64 MiB');
    await refused(file(gzipSync(Buffer.concat([...Array<Buffer>(33).fill(empty), Buffer.alloc(1024)]))), 'more than 32 entries');
  });

  it('an entry over the per-file cap, and a file over the compressed cap', async () => {
    await refused(file(gzipSync(tarOf(BUNDLE_FILES.report, Buffer.alloc(32 * MiB + 1)))), 'an entry of 33554433 bytes, over the 32 MiB one file of a bundle may take');
    await refused(file(Buffer.alloc(16 * MiB + 1)), 'over the 16 MiB a bundle may take (compressed)');
  });

  it('a forged conformance.json after the end-of-archive marker of a signed bundle', async () => {
    const tar = gunzipSync(readFileSync(await signedBundle()));
    const forged = tarOf(BUNDLE_FILES.report, Buffer.from('{"summary":{"verdict":"conformant"}}'));
    await refused(file(gzipSync(Buffer.concat([tar, forged]))), /\d+ byte\(s\) follow the end-of-archive marker/);
  });

  it('a second gzip member after a signed bundle', async () => {
    const signed = readFileSync(await signedBundle());
    const forged = gzipSync(tarOf(BUNDLE_FILES.report, Buffer.from('{"summary":{"verdict":"conformant"}}')));
    await refused(file(Buffer.concat([signed, forged])), `${forged.length} byte(s) follow the gzip stream (a second gzip member)`);
  });

  it('a truncated archive and a corrupt gzip stream', async () => {
    const signed = readFileSync(await signedBundle());
    await refused(file(signed.subarray(0, signed.length - 20)), /gzip (stream is truncated|data is corrupt)/);
    const corrupt = Buffer.from(signed);
    corrupt.writeUInt32LE((corrupt.readUInt32LE(corrupt.length - 8) ^ 0xff) >>> 0, corrupt.length - 8);
    await refused(file(corrupt), 'the gzip checksum or length does not match its data');
  });
});
