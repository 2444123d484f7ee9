// Reads a bundle's .tar.gz in bounded time and memory, whatever the file holds: every size is capped before it is
// reached (compressed file, inflated bytes as they come out, entry count, entry size), and any byte after the one
// gzip member or after the tar end-of-archive marker is refused — another tool would read it (`tar -xzif`
// extracts files placed there). node-tar parses the entries; this module only bounds and delimits its input.
import { openSync, closeSync, fstatSync, readSync } from 'node:fs';
import { crc32, inflateRawSync } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';

/** A bundle is a few hundred kilobytes to a few megabytes; these caps leave a wide margin and nothing more. */
export const ARCHIVE_LIMITS = {
  compressedBytes: 16 * 1024 * 1024,
  uncompressedBytes: 64 * 1024 * 1024,
  entries: 32,
  entryBytes: 32 * 1024 * 1024,
} as const;

export class BundleError extends Error {}

const BLOCK = 512;
/** tar pads an archive with zeros to a record of 20 blocks; zeros up to that boundary carry nothing. */
const RECORD = 20 * BLOCK;
/** A long-name record names one path; node-tar skips bigger ones (over 1 MiB) where other readers apply them. */
const META_BYTES = 64 * 1024;
const MiB = (n: number) => `${n / (1024 * 1024)} MiB`;

/** The plain files of the archive, name → content. Throws BundleError naming the cap or the defect. */
export function readBoundedTarGz(file: string, limits = ARCHIVE_LIMITS): Map<string, Buffer> {
  const tar = gunzipOneMember(readCapped(file, limits.compressedBytes), limits.uncompressedBytes);
  return tarEntries(tar.subarray(0, endOfArchive(tar, limits)));
}

function readCapped(file: string, cap: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > cap) throw new BundleError(`the file is ${size} bytes, over the ${MiB(cap)} a bundle may take (compressed)`);
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** RFC 1952: one member, its CRC and length checked; nothing may follow it. */
function gunzipOneMember(gz: Buffer, cap: number): Buffer {
  if (gz.length < 18 || gz[0] !== 0x1f || gz[1] !== 0x8b || gz[2] !== 8) throw new BundleError('not a gzip file');
  const flags = gz[3]!;
  let at = 10;
  if (flags & 0x04) at += 2 + gz.readUInt16LE(at); // FEXTRA
  if (flags & 0x08) at = gz.indexOf(0, at) + 1; // FNAME
  if (flags & 0x10) at = gz.indexOf(0, at) + 1; // FCOMMENT
  if (flags & 0x02) at += 2; // FHCRC
  if (at <= 0 || at >= gz.length) throw new BundleError('the gzip header is truncated');
  let inflated: { buffer: Buffer; engine: { bytesWritten: number } };
  try {
    // why: maxOutputLength stops inflation as soon as the output passes the cap (a 2 MB bomb never becomes 2 GiB)
    inflated = inflateRawSync(gz.subarray(at), { info: true, maxOutputLength: cap }) as unknown as typeof inflated;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') throw new BundleError(`it inflates to more than the ${MiB(cap)} a bundle may take (uncompressed)`);
    throw new BundleError(`the gzip data is corrupt (${(error as Error).message})`);
  }
  const trailer = at + inflated.engine.bytesWritten;
  if (trailer + 8 > gz.length) throw new BundleError('the gzip stream is truncated');
  const data = inflated.buffer;
  if (gz.readUInt32LE(trailer) !== crc32(data) || gz.readUInt32LE(trailer + 4) !== data.length % 2 ** 32) throw new BundleError('the gzip checksum or length does not match its data');
  const after = gz.length - trailer - 8;
  if (after > 0) throw new BundleError(`${after} byte(s) follow the gzip stream${gz[trailer + 8] === 0x1f && gz[trailer + 9] === 0x8b ? ' (a second gzip member)' : ''}: a bundle is one gzip member`);
  return data;
}

/**
 * Walks the 512-byte headers to the end-of-archive marker, capping the entries; returns where the archive ends.
 * Every entry must be one this reader interprets as `tar -x` and Python's tarfile do: a regular file, or a long-name
 * record for the file that follows it. Another type flag (tarfile and GNU tar extract an unknown one as a regular
 * file; node-tar skips it) or any other meta record would let them unpack what is never checked here.
 */
function endOfArchive(tar: Buffer, limits: typeof ARCHIVE_LIMITS): number {
  let at = 0;
  let entries = 0;
  let pendingMeta: string | undefined;
  let paxSize: number | undefined;
  while (at + BLOCK <= tar.length) {
    if (isZero(tar, at, at + BLOCK)) {
      if (at + 2 * BLOCK > tar.length || !isZero(tar, at + BLOCK, at + 2 * BLOCK)) throw new BundleError(`a lone zero block at byte ${at}: not a tar end-of-archive marker`);
      if (pendingMeta) throw new BundleError(`a ${pendingMeta} record at the end of the archive names no file`);
      const end = at + 2 * BLOCK;
      const padded = Math.min(tar.length, Math.ceil(end / RECORD) * RECORD);
      if (tar.length > padded || !isZero(tar, end, padded)) throw new BundleError(`${tar.length - end} byte(s) follow the end-of-archive marker: another tar reader would extract what is there`);
      return end;
    }
    if (++entries > limits.entries) throw new BundleError(`more than ${limits.entries} entries (a bundle holds 7 files at most)`);
    const size = entrySize(tar, at);
    if (size > limits.entryBytes) throw new BundleError(`an entry of ${size} bytes, over the ${MiB(limits.entryBytes)} one file of a bundle may take`);
    const type = String.fromCharCode(tar[at + 156]!);
    const data = () => tar.subarray(at + BLOCK, Math.min(tar.length, at + BLOCK + size));
    if (type === '0') {
      if (pendingMeta === 'pax' && paxSize !== undefined && paxSize !== size) throw new BundleError(`an entry at byte ${at} is ${size} bytes by its header and ${paxSize} by the pax record before it: tar readers would disagree where the next entry starts`);
      pendingMeta = undefined;
      paxSize = undefined;
    } else if ((type === 'x' || type === 'L') && pendingMeta === undefined && size <= META_BYTES) {
      pendingMeta = type === 'x' ? 'pax' : 'long-name';
      if (type === 'x') paxSize = paxRecords(data(), at);
    } else {
      throw new BundleError(`an entry at byte ${at} of tar type ${JSON.stringify(type)}${pendingMeta ? ` after a ${pendingMeta} record` : ''}: a bundle holds regular files only (type "0"), each at most after one long-name record of up to ${META_BYTES} bytes`);
    }
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new BundleError('the tar archive has no end-of-archive marker (truncated)');
}

/** The size a pax header carries (undefined: none); any record but the long name (`path`) and `size` is refused. */
function paxRecords(data: Buffer, header: number): number | undefined {
  let size: number | undefined;
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const length = space > at ? Number(data.subarray(at, space).toString('latin1')) : NaN;
    if (!Number.isSafeInteger(length) || length <= space - at + 1 || at + length > data.length || data[at + length - 1] !== 0x0a) throw new BundleError(`the pax header at byte ${header} has a malformed record`);
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    const key = eq > 0 ? record.slice(0, eq) : '';
    if (key === 'size') {
      if (!/^[0-9]{1,15}$/.test(record.slice(eq + 1))) throw new BundleError(`the pax header at byte ${header} has a malformed size`);
      size = Number(record.slice(eq + 1));
    } else if (key !== 'path') throw new BundleError(`the pax header at byte ${header} carries "${key.slice(0, 40)}": a bundle's archive may name a long path in it, nothing else`);
    at += length;
  }
  return size;
}

function entrySize(tar: Buffer, header: number): number {
  const field = tar.subarray(header + 124, header + 136);
  // why: base-256 sizes (first byte 0x80) exist only for files over 8 GiB: never a bundle's
  if (field[0]! & 0x80) throw new BundleError(`an entry at byte ${header} declares a binary (over 8 GiB) size`);
  const text = field.toString('latin1').replace(/[\0 ]+$/, '').trim();
  if (!/^[0-7]*$/.test(text)) throw new BundleError(`an entry at byte ${header} has no valid size field`);
  return text === '' ? 0 : parseInt(text, 8);
}

function isZero(buffer: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (buffer[i] !== 0) return false;
  return true;
}

/** node-tar reads the delimited archive (header checksums, pax and long names); only plain top-level files pass. */
function tarEntries(tar: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const parser = new Parser({
    strict: true,
    onReadEntry: (entry: ReadEntry) => {
      if (entry.type !== 'File' || entry.path.includes('/') || entry.path.includes('\\') || entry.path.startsWith('.') || entry.path === '') {
        throw new BundleError(`unexpected entry "${entry.path}" (${entry.type}): a bundle holds plain files only`);
      }
      if (files.has(entry.path)) throw new BundleError(`"${entry.path}" occurs twice`);
      const chunks: Buffer[] = [];
      entry.on('data', (c: Buffer) => chunks.push(c));
      entry.on('end', () => files.set(entry.path, Buffer.concat(chunks)));
    },
  });
  let failure: unknown;
  parser.on('error', (error: unknown) => (failure ??= error));
  parser.end(tar);
  if (failure) throw failure instanceof BundleError ? failure : new BundleError(`not a valid tar archive (${(failure as Error).message})`);
  return files;
}
