// The suite's identity is the digest of its own files, not what git says: a release ships release-manifest.json
// (every shipped file's SHA-256, written by `npm run release:manifest` at the tag) and a run is from a released suite
// only when the files it runs from hash to exactly that manifest — a copy without .git with one assertion deleted
// is not. The shipped files are those the image carries too (.dockerignore leaves out test/, docs/, .git).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REQUIREMENTS } from '../requirements/index.ts';

export const RELEASE_MANIFEST = 'release-manifest.json';
export const RELEASE_MANIFEST_FORMAT = 'notification-api-conformance/release-manifest';

/** What a release ships: the code of every room a run loads, its data and the lock file, never tests or docs. */
export const SHIPPED_DIRS = ['bin', 'certify', 'cli', 'config', 'diff', 'fixtures', 'fuzz', 'harness', 'load', 'reference', 'report', 'requirements', 'schemas', 'suites'] as const;
export const SHIPPED_FILES = ['package.json', 'package-lock.json', '.npmrc', 'tsconfig.json', 'vitest.config.ts'] as const;

export interface ReleaseManifest {
  format: typeof RELEASE_MANIFEST_FORMAT;
  name: string;
  version: string;
  /** sha256 over the `<sha256>  <path>` lines of `files`, sorted: the release's identity, published with it. */
  digest: string;
  files: Record<string, string>;
}

/** Where the suite's files stand against its release. */
export interface SuiteRelease {
  /** The digest of the files this suite runs from (`sha256:…`). */
  digest: string;
  /** The release manifest that came with the files (version and digest), or null when none did. */
  release: { version: string; digest: string } | null;
}

/** Every shipped file under `root`, by path relative to it, with its SHA-256. */
export function shippedFileDigests(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (relative: string) => {
    for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
      const path = `${relative}/${entry.name}`;
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile()) files.set(path, sha256(readFileSync(join(root, path))));
    }
  };
  for (const dir of SHIPPED_DIRS) if (existsSync(join(root, dir))) visit(dir);
  for (const file of SHIPPED_FILES) if (existsSync(join(root, file))) files.set(file, sha256(readFileSync(join(root, file))));
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** sha256 over the `<sha256>  <path>` lines of the files, sorted by path. */
export function digestOf(files: ReadonlyMap<string, string>): string {
  const sorted = [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `sha256:${sha256(sorted.map(([path, digest]) => `${digest}  ${path}\n`).join(''))}`;
}

/** The suite at `root` against the release manifest beside it. */
export function suiteRelease(root: string): SuiteRelease {
  const files = shippedFileDigests(root);
  const digest = digestOf(files);
  const manifest = readReleaseManifest(root);
  if (!manifest) return { digest, release: null };
  // why: the manifest's own digest field is a claim; the release's identity is what its file list hashes to
  return { digest, release: { version: manifest.version, digest: digestOf(new Map(Object.entries(manifest.files))) } };
}

export function readReleaseManifest(root: string): ReleaseManifest | undefined {
  const file = join(root, RELEASE_MANIFEST);
  if (!existsSync(file)) return undefined;
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as ReleaseManifest;
    return doc.format === RELEASE_MANIFEST_FORMAT && typeof doc.version === 'string' && typeof doc.files === 'object' && doc.files !== null ? doc : undefined;
  } catch {
    return undefined;
  }
}

/** Writes release-manifest.json for the files at `root` (the release procedure, docs/releasing.md); returns it. */
export function writeReleaseManifest(root: string, name: string, version: string): ReleaseManifest {
  const files = shippedFileDigests(root);
  const manifest: ReleaseManifest = { format: RELEASE_MANIFEST_FORMAT, name, version, digest: digestOf(files), files: Object.fromEntries(files) };
  writeFileSync(join(root, RELEASE_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

let catalog: string | undefined;

/** The digest of the rule catalog (every rule's ID, level, text and how it is verified): which rules a verdict answers. */
export function ruleCatalogDigest(): string {
  return (catalog ??= `sha256:${sha256(JSON.stringify(REQUIREMENTS))}`);
}

function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}
