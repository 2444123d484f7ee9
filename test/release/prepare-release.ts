// The last step of `npm run release:prepare` (docs/releasing.md): writes release-manifest.json for the files as they
// are, puts its digest in the README and the version's CHANGELOG entry, and prints the commands that commit and tag.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, SUITE_NAME, SUITE_VERSION } from '../../report/suite-info.ts';
import { RELEASE_MANIFEST, writeReleaseManifest } from '../../report/suite-release.ts';
import { DIGEST_PLACES, withDigest } from './release-digest.ts';

const manifest = writeReleaseManifest(REPO_ROOT, SUITE_NAME, SUITE_VERSION);
for (const place of DIGEST_PLACES) {
  const path = join(REPO_ROOT, place.file);
  writeFileSync(path, withDigest(readFileSync(path, 'utf8'), place, SUITE_VERSION, manifest.digest));
}
const tag = `v${SUITE_VERSION}`;
process.stdout.write(`${RELEASE_MANIFEST}: ${Object.keys(manifest.files).length} files of ${SUITE_NAME} ${SUITE_VERSION}
release digest: ${manifest.digest} (written into ${DIGEST_PLACES.map((p) => p.file).join(' and ')})

Then, with nothing else changed:
  git add -A && git commit -m "Release ${SUITE_VERSION}"
  git tag -a ${tag} -m "${SUITE_NAME} ${SUITE_VERSION} (${manifest.digest})"
  git push origin main ${tag}
`);
