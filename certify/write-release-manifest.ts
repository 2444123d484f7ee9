// `npm run release:manifest`: writes release-manifest.json for the files of this checkout and prints the digest the
// release publishes (docs/releasing.md). Run it at the release commit, with nothing changed, then commit and tag.
import { REPO_ROOT, SUITE_NAME, SUITE_VERSION } from '../report/suite-info.ts';
import { RELEASE_MANIFEST, writeReleaseManifest } from '../report/suite-release.ts';

const manifest = writeReleaseManifest(REPO_ROOT, SUITE_NAME, SUITE_VERSION);
process.stdout.write(`${RELEASE_MANIFEST}: ${Object.keys(manifest.files).length} files of ${SUITE_NAME} ${SUITE_VERSION}\nrelease digest: ${manifest.digest}\n`);
