import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { BUNDLE_FILES, bundleFiles, MANIFEST, sha256, writeBundle, type BundleInput } from '../../certify/bundle.ts';
import { junitXml } from '../../report/junit.ts';
import { mergeReport } from '../../load/merge-into-report.ts';
import { readBundle, verifyBundle } from '../../certify/verify-bundle.ts';
import { sampleRecords, sampleReport } from './sample-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'bundle-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'sk_test_bundle_key_0123456789';
const input = (): BundleInput => {
  const records = sampleRecords();
  const sample = sampleReport(records);
  const loadJson = { format: 'notification-api-conformance/load', target: { ...sample.target }, verdicts: [], timelines: [{ scenario: 's', routes: { trigger: { sent: 3, examples: [{ body: KEY }] } }, buckets: [] }] };
  // as `conformance load` leaves the report: its grade judges the load plan
  const report = mergeReport(sample, [], loadJson);
  return {
    report,
    junitXml: junitXml(report),
    settings: { ...structuredClone(DEFAULT_SETTINGS), target: { baseUrl: 'http://127.0.0.1:1', apiKey: KEY, restrictedApiKey: `${KEY}-r` } },
    loadJson,
  };
};

/** Writes any set of files as a bundle, for tampering. */
function pack(name: string, files: Map<string, string>, withManifest = true): string {
  const stage = mkdtempSync(join(dir, 'stage-'));
  const all = new Map(files);
  if (withManifest) {
    all.delete(MANIFEST);
    all.set(MANIFEST, [...all].map(([n, c]) => `${sha256(c)}  ${n}\n`).join(''));
  }
  for (const [n, c] of all) writeFileSync(join(stage, n), c);
  const file = join(dir, name);
  create({ file, cwd: stage, gzip: true, sync: true }, [...all.keys()]);
  return file;
}

/** junit.xml carries the verdict: an edited report or junit.xml no longer agree. */
const JUNIT_DIFFERS = expect.stringMatching(/^junit\.xml is what conformance\.json gives \(it differs/);
const failures = (file: string) => verifyBundle(readBundle(file)).filter((c) => !c.ok).map((c) => c.what);

describe('certification bundle', () => {
  it('holds the report, junit, redacted configuration, provenance, load summary and a manifest, and verifies', () => {
    const file = writeBundle(join(dir, 'ok.tar.gz'), input());
    const files = readBundle(file);
    expect([...files.keys()].sort()).toEqual([MANIFEST, ...Object.values(BUNDLE_FILES)].sort());
    const text = [...files.values()].map((b) => b.toString('utf8')).join('\n');
    expect(text).not.toContain(KEY);
    expect(JSON.parse(files.get(BUNDLE_FILES.configuration)!.toString()).target).toMatchObject({ apiKey: '[REDACTED]', restrictedApiKey: '[REDACTED]', baseUrl: 'http://127.0.0.1:1' });
    const provenance = JSON.parse(files.get(BUNDLE_FILES.provenance)!.toString());
    expect(provenance).toMatchObject({ spec: { version: '3.19.2' }, suite: { name: 'notification-api-conformance' } });
    expect(provenance.suite).toHaveProperty('gitCommit');
    expect(provenance.suite.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(failures(file)).toEqual([]);
  });

  it('configuration.json holds no local path: the report directory and the baseline by their names only', () => {
    const base = input();
    const settings = { ...base.settings, run: { ...base.settings.run, reportDir: '/home/alice/ci/reports', expectations: '/home/alice/ci/known-gaps.yaml' } };
    const configuration = bundleFiles({ ...base, settings }).get(BUNDLE_FILES.configuration)!;
    expect(configuration).not.toContain('/home/alice');
    expect(JSON.parse(configuration).run).toMatchObject({ reportDir: 'reports', expectations: 'known-gaps.yaml' });
  });

  it('is byte-for-byte reproducible for the same report', () => {
    const a = bundleFiles(input());
    const b = bundleFiles(input());
    a.delete(BUNDLE_FILES.provenance);
    b.delete(BUNDLE_FILES.provenance);
    a.delete(MANIFEST);
    b.delete(MANIFEST);
    expect(a).toEqual(b);
  });

  it('fails on a file changed after the manifest was made', () => {
    const files = bundleFiles(input());
    files.set(BUNDLE_FILES.junit, `${files.get(BUNDLE_FILES.junit)}<!-- edited -->`);
    expect(failures(pack('edited.tar.gz', files, false))).toEqual(['junit.xml matches its SHA-256', JUNIT_DIFFERS]);
  });

  it('fails on a file the manifest does not list, and on a missing one', () => {
    const files = bundleFiles(input());
    const extra = pack('extra.tar.gz', new Map([...files, ['notes.txt', 'hi']]), false);
    expect(failures(extra)).toEqual(['notes.txt is listed in SHA256SUMS']);
    const missing = new Map(files);
    missing.delete(BUNDLE_FILES.junit);
    expect(failures(pack('missing.tar.gz', missing, false))).toEqual(expect.arrayContaining(['junit.xml (listed in SHA256SUMS) is in the bundle', 'junit.xml is present']));
  });

  it('fails when a rule is missing or the summary does not match the verdicts, even with a fresh manifest', () => {
    const files = bundleFiles(input());
    const report = JSON.parse(files.get(BUNDLE_FILES.report)!);
    const dropped = { ...report, requirements: report.requirements.filter((r: { id: string }) => r.id !== 'AUTH-02') };
    expect(failures(pack('dropped.tar.gz', new Map([...files, [BUNDLE_FILES.report, JSON.stringify(dropped)]]))).join('\n')).toContain('missing AUTH-02');
    const flipped = { ...report, summary: { ...report.summary, verdict: 'conformant' } };
    expect(failures(pack('flipped.tar.gz', new Map([...files, [BUNDLE_FILES.report, JSON.stringify(flipped)]])))).toEqual(['the summary matches the verdicts (conformant)', JUNIT_DIFFERS]);
    const passed = structuredClone(report);
    passed.requirements.find((r: { id: string }) => r.id === 'AUTH-03').verdict = 'pass';
    expect(failures(pack('passed.tar.gz', new Map([...files, [BUNDLE_FILES.report, JSON.stringify(passed)]]))).join('\n')).toContain('every verdict fits its tests (not AUTH-03=pass)');
    const undecided = structuredClone(report);
    const rl05 = undecided.requirements.find((r: { id: string }) => r.id === 'RL-05');
    rl05.verdict = 'pass';
    rl05.tests = [{ name: 'load: 160/s gets no 429 [RL-05]', status: 'passed', durationMs: 1 }, { name: 'load: converges to 200/s [RL-05]', status: 'not-verified', durationMs: 1, decisive: true }];
    expect(failures(pack('undecided.tar.gz', new Map([...files, [BUNDLE_FILES.report, JSON.stringify(undecided)]]))).join('\n')).toContain('every verdict fits its tests (not RL-05=pass)');
  });

  it('fails on a junit.xml that disagrees with the report: 82 failures beside a report claiming none', () => {
    const files = bundleFiles(input());
    const junit = files.get(BUNDLE_FILES.junit)!.replace(/(<testsuites[^>]* failures=")\d+"/, '$182"');
    expect(failures(pack('junit-82.tar.gz', new Map([...files, [BUNDLE_FILES.junit, junit]])))).toEqual(['junit.xml is what conformance.json gives (it differs: 82 failure(s) in junit.xml, 2 from the report)']);
  });

  it('verify-bundle exits 3 on an intact unsigned bundle (it certifies nothing) and 1 on a bad one', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await main(['verify-bundle', writeBundle(join(dir, 'cli.tar.gz'), input())], {})).toBe(3);
      const files = bundleFiles(input());
      files.set(BUNDLE_FILES.report, '{}');
      expect(await main(['verify-bundle', pack('bad.tar.gz', files, false)], {})).toBe(1);
      writeFileSync(join(dir, 'garbage.tar.gz'), 'not an archive');
      expect(await main(['verify-bundle', join(dir, 'garbage.tar.gz')], {})).toBe(1);
      expect(out.mock.calls.map((c) => String(c[0])).join('')).toContain('INVALID');
    } finally {
      out.mockRestore();
    }
  });
});
