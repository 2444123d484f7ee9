// Where the release digest is published besides the tag: the README and the version's CHANGELOG entry.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIGEST = /sha256:[0-9a-f]{64}/;

export interface DigestPlace {
  file: string;
  /** The sentence that carries the digest of `version`. */
  pattern: (version: string) => RegExp;
}

export const DIGEST_PLACES: readonly DigestPlace[] = [
  { file: 'README.md', pattern: (v) => new RegExp(`The current release is \\*\\*${v.replaceAll('.', '\\.')}\\*\\*, release digest \`(${DIGEST.source})\``) },
  { file: 'CHANGELOG.md', pattern: (v) => new RegExp(`## \\[${v.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}\\n\\n[^\\n]*\\n\\nRelease digest: \`(${DIGEST.source})\``) },
];

/** The digest a document states for the version, or undefined where it states none. */
export function statedDigest(root: string, place: DigestPlace, version: string): string | undefined {
  return place.pattern(version).exec(readFileSync(join(root, place.file), 'utf8'))?.[1];
}

/** The document with the version's digest replaced. */
export function withDigest(text: string, place: DigestPlace, version: string, digest: string): string {
  const m = place.pattern(version).exec(text);
  if (!m) throw new Error(`${place.file} has no sentence for the digest of ${version} (${place.pattern(version)})`);
  return text.slice(0, m.index) + m[0].replace(m[1]!, digest) + text.slice(m.index + m[0].length);
}
