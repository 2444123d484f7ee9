// A bundle certifies the rate-limit rules only as measured: the full profile, every scenario that can fail an
// over-generous limit, to its end, against the run's target. A short profile, `--scenario trigger-under-limit`
// alone, a Ctrl-C, or timelines from elsewhere leave an intact bundle NOT CERTIFIED with the reason; a load summary
// whose verdicts are not the report's makes it INVALID.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { ATTESTATION_FILE, buildStatement } from '../../certify/attestation.ts';
import { bundleFiles } from '../../certify/bundle.ts';
import { certifyBundle } from '../../certify/certify-bundle.ts';
import { DECISIVE_LOAD_SCENARIOS } from '../../certify/load-plan.ts';
import { readSigningKey, signStatement } from '../../certify/sign-attestation.ts';
import { readPublicKey } from '../../certify/verify-attestation.ts';
import { SCENARIO_NAMES } from '../../load/scenarios/index.ts';
import { printBundleVerification } from '../../cli/print-bundle-verification.ts';
import { junitXml } from '../../report/junit.ts';
import { SUITE_VERSION } from '../../report/suite-info.ts';
import { mergeReport } from '../../load/merge-into-report.ts';
import { vendorKey } from './vendor-key.ts';
import { certifiableReport, RELEASED_DIGEST } from './sample-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'load-plan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const vendor = vendorKey(dir);
const report = certifiableReport();

const loadJson = (edit: (d: any) => void = () => undefined) => {
  const doc: any = {
    format: 'notification-api-conformance/load',
    formatVersion: 1,
    engine: 'node',
    engineVersion: SUITE_VERSION,
    profile: 'full',
    target: { baseUrl: report.target.baseUrl, embeddedReference: false, faults: [] },
    expectedRps: 200,
    verdicts: [{ id: 'RL-05', level: 'MUST', verdict: 'pass', tests: [] }],
    leaks: [],
    timelines: SCENARIO_NAMES.map((scenario) => ({ scenario, engine: 'node', target: report.target.baseUrl, plan: { phases: [{ name: 'over-limit' }] }, routes: {} })),
  };
  edit(doc);
  return doc;
};

/** Bundles `r` as `conformance load` leaves it after merging `load` (its grade judged on the load plan), signed. */
async function verify(load: unknown, r = report, merge = true) {
  if (merge) r = mergeReport(r, [], load);
  const files = bundleFiles({ report: r, junitXml: junitXml(r), settings: { ...structuredClone(DEFAULT_SETTINGS), target: { baseUrl: r.target.baseUrl } }, loadJson: load });
  files.set(ATTESTATION_FILE, await signStatement(buildStatement(files), { kind: 'key', key: readSigningKey(vendor.privateKey) }));
  const buffers = new Map([...files].map(([name, content]) => [name, Buffer.from(content)]));
  return certifyBundle(buffers, { kind: 'key', publicKey: readPublicKey(vendor.publicKey) }, { digest: RELEASED_DIGEST, source: 'given with --suite-digest' });
}

describe('the load plan is part of the verdict', () => {
  it('the decisive scenarios are every load scenario but trigger-under-limit (whose checks cannot fail over the limit)', () => {
    expect([...DECISIVE_LOAD_SCENARIOS].sort()).toEqual(SCENARIO_NAMES.filter((n) => n !== 'trigger-under-limit').sort());
  });

  it('a full, uninterrupted load of every scenario against the run\'s target certifies', async () => {
    const result = await verify(loadJson());
    expect(result.notCertifiedBecause).toEqual([]);
    expect(result.status).toBe('certified');
  });

  it.for([
    ['the short profile', (d: any): void => { d.profile = 'short'; }, /the load ran the short profile; certification needs the full profile/],
    ['trigger-under-limit alone', (d: any): void => { d.timelines = d.timelines.filter((t: any) => t.scenario === 'trigger-under-limit'); }, /the load left out trigger-limit, headers-under-load, bulk-cost, category-isolation/],
    ['an interrupted load (Ctrl-C)', (d: any): void => { d.interrupted = { signal: 'SIGINT', cut: [], notRun: [] }; }, /the load run was interrupted before its end/],
    ['timelines recorded elsewhere', (d: any): void => { d.target = { baseUrl: report.target.baseUrl, fromTimelines: ['/home/me/t1.json'] }; }, /judged from timelines recorded elsewhere \(--from-timelines\)/],
  ] as const)('%s is NOT CERTIFIED, with the reason', async ([, edit, why]) => {
    const result = await verify(loadJson(edit));
    expect(result.status).toBe('not-certified');
    expect(result.notCertifiedBecause.join('\n')).toMatch(why);
  });

  it('the grade conformance load writes is the verifier\'s: NOT CERTIFIED with the reason, never INVALID; a grade the load plan did not judge is INVALID', async () => {
    const short = loadJson((d) => (d.profile = 'short'));
    const merged = await verify(short);
    expect(merged.status).toBe('not-certified');
    expect(merged.report?.certification?.reasons).toEqual([{ code: 'load-plan', text: expect.stringMatching(/^the load ran the short profile/) }]);
    const stale = await verify(short, report, false);
    expect(stale.status).toBe('invalid');
    expect(stale.checks.filter((c) => !c.ok).map((c) => c.what)).toEqual([expect.stringMatching(/^the certification grade is what the report and configuration give \(stated certification-grade, recomputed not certification-grade: load-plan\)/)]);
  });

  it('a load measured against another target is INVALID (one target per report)', async () => {
    expect((await verify(loadJson((d) => (d.target.baseUrl = 'http://other.example')))).status).toBe('invalid');
  });

  it('the bundle names timeline files without their local path', async () => {
    const files = bundleFiles({ report, junitXml: junitXml(report), settings: structuredClone(DEFAULT_SETTINGS), loadJson: loadJson((d) => (d.target = { fromTimelines: ['/home/me/runs/t1.json'] })) });
    const summary = files.get('load-summary.json')!;
    expect(summary).not.toContain('/home/me');
    expect(JSON.parse(summary).target.fromTimelines[0]).toMatchObject({ name: 't1.json', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('a load summary that failed RL-05 beside a report that passes it is INVALID', async () => {
    const result = await verify(loadJson((d) => (d.verdicts = [{ id: 'RL-05', level: 'MUST', verdict: 'fail', tests: [{ name: 'load RL-05 over the limit', status: 'failed' }] }])));
    expect(result.status).toBe('invalid');
    expect(result.checks.filter((c) => !c.ok).map((c) => c.what).join('\n')).toMatch(/the load summary's verdicts are the report's \(not RL-05: the load summary says fail/);
  });

  it('RL-05 re-signed as not-applicable without a declaration, beside a load summary that failed it, is INVALID', async () => {
    const edited = structuredClone(report);
    const rule = edited.requirements.find((r) => r.id === 'RL-05')!;
    rule.verdict = 'not-applicable';
    rule.tests = rule.tests.map((t) => ({ ...t, status: 'not-applicable' as const }));
    const result = await verify(loadJson((d) => (d.verdicts = [{ id: 'RL-05', level: 'MUST', verdict: 'fail', tests: [{ name: 'load RL-05 over the limit', status: 'failed' }] }])), edited);
    expect(result.status).toBe('invalid');
    const failed = result.checks.filter((c) => !c.ok).map((c) => c.what).join('\n');
    expect(failed).toMatch(/every verdict fits its tests \(not RL-05=not-applicable\)/);
    expect(failed).toMatch(/the load summary's verdicts are the report's \(not RL-05/);
  });

  it('the verifier prints the declarations and the load plan', async () => {
    const lines: string[] = [];
    printBundleVerification(await verify(loadJson((d) => (d.profile = 'short'))), { file: 'b.tar.gz', trust: { kind: 'key', file: 'k.pub' }, now: new Date() }, (l) => lines.push(l));
    const out = lines.join('\n');
    expect(out).toMatch(/^ {2}Declared: +(idempotency on, rate limiting on, regional endpoint yes, trigger limit \d+\/s|nothing \(a report of an older version\))$/m);
    expect(out).toMatch(new RegExp(`^ {2}Load: +engine node ${SUITE_VERSION.replaceAll('.', '\\.')}, profile short, scenarios trigger-limit, trigger-under-limit, headers-under-load, bulk-cost, category-isolation$`, 'm'));
    expect(out).toMatch(/^NOT CERTIFIED: .*the load ran the short profile/m);
  });

  it('the verifier prints k6 and the version k6 reported, and says when a load run recorded no version', async () => {
    const print = async (edit: (d: any) => void) => {
      const lines: string[] = [];
      printBundleVerification(await verify(loadJson(edit)), { file: 'b.tar.gz', trust: { kind: 'key', file: 'k.pub' }, now: new Date() }, (l) => lines.push(l));
      return lines.find((l) => l.startsWith('  Load: '));
    };
    expect(await print((d) => ((d.engine = 'k6'), (d.engineVersion = '1.3.0')))).toMatch(/^ {2}Load: +engine k6 1\.3\.0, profile full,/);
    expect(await print((d) => delete d.engineVersion)).toMatch(/^ {2}Load: +engine node \(version not recorded\), profile full,/);
  });
});
