// "Released" is proven by the suite's own files, not declared: a copy whose files hash to its release manifest is
// a release; the same copy without .git and with one TRIG-04 assertion deleted is not, whatever git says; and the
// verifier matches the run's suite digest and rule catalog against what it trusts.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { bundleFiles, writeArchive } from '../../certify/bundle.ts';
import { assessCertification } from '../../certify/certification.ts';
import { certifyBundle } from '../../certify/certify-bundle.ts';
import type { ConformanceReport } from '../../report/conformance-report.ts';
import { junitXml } from '../../report/junit.ts';
import { isReleasedSuite, REPO_ROOT, SUITE_NAME, SUITE_VERSION, suiteSourceAt } from '../../report/suite-info.ts';
import { RELEASE_MANIFEST, ruleCatalogDigest, SHIPPED_DIRS, SHIPPED_FILES, writeReleaseManifest } from '../../report/suite-release.ts';
import { readBundle } from '../../certify/verify-bundle.ts';
import { certifiableReport, RELEASED_DIGEST } from './sample-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'suite-release-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The shipped files of this checkout, copied without .git, as an image or an unpacked archive holds them. */
function copyOfTheSuite(name: string): string {
  const root = join(dir, name);
  for (const path of [...SHIPPED_DIRS, ...SHIPPED_FILES]) cpSync(join(REPO_ROOT, path), join(root, path), { recursive: true });
  return root;
}

const released = (root: string) => isReleasedSuite({ version: SUITE_VERSION, ...suiteSourceAt(root) });
const TRIG_04 = 'suites/trigger/transaction-id.test.ts';

describe('the suite release', () => {
  const root = copyOfTheSuite('release');
  const manifest = writeReleaseManifest(root, SUITE_NAME, SUITE_VERSION);

  it('a copy whose files hash to its release manifest is a release, without any git', () => {
    expect(suiteSourceAt(root)).toMatchObject({ commit: null, digest: manifest.digest, release: { version: SUITE_VERSION, digest: manifest.digest } });
    expect(released(root)).toBe(true);
  });

  it('the same copy with one TRIG-04 assertion deleted is unreleased, and its certification names both digests', () => {
    const modified = copyOfTheSuite('modified');
    cpSync(join(root, 'release-manifest.json'), join(modified, 'release-manifest.json'));
    const file = join(modified, TRIG_04);
    const source = readFileSync(file, 'utf8');
    const assertion = source.split('\n').findIndex((line) => /^\s*expect\(/.test(line));
    expect(assertion).toBeGreaterThan(0);
    writeFileSync(file, source.split('\n').filter((_, i) => i !== assertion).join('\n'));
    const suite = { name: SUITE_NAME, version: SUITE_VERSION, ...suiteSourceAt(modified) };
    expect(suite.commit).toBeNull();
    expect(suite.digest).not.toBe(manifest.digest);
    expect(released(modified)).toBe(false);
    const report = { ...certifiableReport(), suite };
    expect(assessCertification(report, {}).reasons).toEqual([{ code: 'unreleased-suite', text: `the suite is not a released version: its files (${suite.digest}) differ from its release manifest of ${SUITE_VERSION} (${manifest.digest})` }]);
  });

  it('a copy with no release manifest is unreleased, and so is one with a file added', () => {
    expect(released(copyOfTheSuite('no-manifest'))).toBe(false);
    const added = copyOfTheSuite('added');
    cpSync(join(root, 'release-manifest.json'), join(added, 'release-manifest.json'));
    writeFileSync(join(added, 'suites/extra.test.ts'), '// a suite file the release does not have\n');
    expect(released(added)).toBe(false);
  });
});

describe('the image carries the same proof', () => {
  it('COPY . . brings every shipped file and the release manifest: .dockerignore names none of them', () => {
    const ignored = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    expect(ignored.filter((name) => [...SHIPPED_DIRS, ...SHIPPED_FILES, RELEASE_MANIFEST].includes(name as never))).toEqual([]);
  });
});

describe('the verifier matches the run\'s suite and catalog against what it trusts', () => {
  const bundle = (report: ConformanceReport) => {
    const files = bundleFiles({ report, junitXml: junitXml(report), settings: { ...structuredClone(DEFAULT_SETTINGS), target: { baseUrl: report.target.baseUrl } } });
    return readBundle(writeArchive(join(dir, `b-${Math.random().toString(36).slice(2)}.tar.gz`), files, new Date(0)));
  };
  const trusted = { digest: RELEASED_DIGEST, source: 'given with --suite-digest' };
  const failedChecks = (report: ConformanceReport, release = trusted) => certifyBundle(bundle(report), { kind: 'none' }, release).checks.filter((c) => !c.ok).map((c) => c.what);

  it('a run naming a release digest other than the trusted one is INVALID', () => {
    const forged = certifiableReport();
    const digest = `sha256:${'d'.repeat(64)}`;
    forged.suite = { ...forged.suite, digest, release: { version: SUITE_VERSION, digest } };
    expect(failedChecks(forged)).toEqual([`the suite's files are release ${SUITE_VERSION} as the verifier trusts it (${RELEASED_DIGEST}, given with --suite-digest): the run names ${digest}`]);
  });

  it('without a trusted release a certifiable run is not certified, and says how to check it', () => {
    const result = certifyBundle(bundle(certifiableReport()), { kind: 'none' });
    expect(result.status).toBe('not-certified');
    expect(result.notCertifiedBecause.join('\n')).toContain(`the suite's release is not checked: the run names ${SUITE_VERSION} with files ${RELEASED_DIGEST}; give --suite-digest`);
  });

  it('a run that answers another rule catalog is INVALID', () => {
    const other = certifiableReport();
    other.spec = { ...other.spec, catalogDigest: `sha256:${'e'.repeat(64)}` };
    expect(failedChecks(other)).toEqual([expect.stringMatching(new RegExp(`^the verdicts answer this verifier's rule catalog \\(${ruleCatalogDigest()}\\), not sha256:e+$`))]);
  });
});
