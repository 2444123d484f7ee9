// The release as docs/releasing.md cuts it: the CHANGELOG has the version's entry, the CI recipes check out its tag,
// and the digest the README and the CHANGELOG publish is the committed release manifest's.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT, SUITE_VERSION } from '../../report/suite-info.ts';
import { readReleaseManifest } from '../../report/suite-release.ts';
import { DIGEST_PLACES, statedDigest } from './release-digest.ts';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

describe('the release', () => {
  test('CHANGELOG.md keeps a changelog: Unreleased first, then the package version with its date, each version linked', () => {
    const headings = [...read('CHANGELOG.md').matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((m) => [m[1], m[2]]);
    expect(headings[0]).toEqual(['Unreleased', undefined]);
    expect(headings[1]![0]).toBe(SUITE_VERSION);
    for (const [version] of headings) expect(read('CHANGELOG.md')).toMatch(new RegExp(`^\\[${version!.replaceAll('.', '\\.')}\\]: https://`, 'm'));
  });

  test('the CI recipes check the suite out at the version\'s tag', () => {
    const recipes = ['examples/ci/gitlab-ci.yml', ...readdirSync(join(REPO_ROOT, 'examples/ci/github-actions')).map((f) => `examples/ci/github-actions/${f}`)];
    for (const file of recipes) {
      const refs = [...read(file).matchAll(/ref: (\S+?) ?\}|--branch (\S+)/g)].map((m) => m[1] ?? m[2]);
      expect(refs.length, file).toBeGreaterThan(0);
      expect(refs.filter((r) => r !== `v${SUITE_VERSION}`), file).toEqual([]);
    }
  });

  test('the README and the CHANGELOG publish the digest of the committed release manifest', () => {
    const manifest = readReleaseManifest(REPO_ROOT);
    expect(existsSync(join(REPO_ROOT, 'release-manifest.json')), 'no release-manifest.json: run npm run release:prepare').toBe(true);
    expect(manifest?.version).toBe(SUITE_VERSION);
    for (const place of DIGEST_PLACES) expect(statedDigest(REPO_ROOT, place, SUITE_VERSION), place.file).toBe(manifest!.digest);
  });
});
