// The summary verdict never claims more than was checked: conformant only when every MUST rule passed or is not
// applicable by declaration (the catalog's observable-only-when-they-happen rules excepted and listed); a MUST rule
// not verified makes the run incomplete; and the certification grade names every reason a run cannot certify.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { assessCertification } from '../../certify/certification.ts';
import { buildReport, verdictExitCode, type ConformanceReport } from '../../report/conformance-report.ts';
import { computeVerdicts } from '../../report/verdicts.ts';
import { conformanceHtml } from '../../report/conformance-html.ts';
import type { TestRecord } from '../../report/test-record.ts';
import { isReleasedSuite } from '../../report/suite-info.ts';
import { LOAD_VERIFIED_RULES, OBSERVED_ONLY_WHEN_THEY_HAPPEN, REQUIREMENTS } from '../../requirements/index.ts';
import { certifiableReport, record, RELEASED_DIGEST } from '../report/sample-report.ts';

const ALL_ON = { idempotency: true, rateLimiting: true };

/** Every rule passes except those `override` names, which get the records given (none: no test ran). */
function reportWith(override: Record<string, TestRecord[]>, features = ALL_ON, extra: { errors?: string[]; rules?: string[] } = {}): ConformanceReport {
  const records = REQUIREMENTS.flatMap((r) => override[r.id] ?? [record([r.id], 'passed')]);
  return buildReport({
    target: { baseUrl: 'https://candidate.example.test', embeddedReference: false, faults: [] },
    startedAt: new Date(0),
    finishedAt: new Date(1000),
    requirements: computeVerdicts(records, features, {}, extra.rules ?? []),
    leaks: [],
    errors: extra.errors ?? [],
  });
}

describe('summary verdict', () => {
  it('the catalog marks ERR-08 and RL-10 as observable only when they happen, and RL-05 as the load\'s rule', () => {
    expect(OBSERVED_ONLY_WHEN_THEY_HAPPEN).toEqual(['ERR-08', 'RL-10']);
    expect(LOAD_VERIFIED_RULES).toEqual(['RL-05']);
  });

  it('is conformant when every MUST rule passed', () => {
    expect(reportWith({}).summary).toMatchObject({ verdict: 'conformant', unverifiedMust: [], exceptedMust: [] });
  });

  it('excepts, and lists, the rules observable only when they happen when none happened', () => {
    const report = reportWith({ 'ERR-08': [record(['ERR-08'], 'skipped', { outcome: 'not-verified', reason: 'no 500 to observe' })], 'RL-10': [] });
    expect(report.summary).toMatchObject({ verdict: 'conformant', unverifiedMust: [], exceptedMust: ['ERR-08', 'RL-10'] });
  });

  it('is non-conformant when such a rule was observed and broken', () => {
    expect(reportWith({ 'ERR-08': [record(['ERR-08'], 'failed')] }).summary.verdict).toBe('non-conformant');
  });

  it('is incomplete when a MUST rule was not verified, and says which and why', () => {
    const report = reportWith({ 'AUTH-04': [record(['AUTH-04'], 'skipped', { outcome: 'not-verified', reason: 'no restricted API key configured' })], 'TS-05': [] });
    expect(report.summary).toMatchObject({
      verdict: 'incomplete',
      unverifiedMust: [{ id: 'AUTH-04', reason: 'no restricted API key configured' }, { id: 'TS-05', reason: 'no test exercised this rule' }],
    });
    expect(verdictExitCode(report)).toBe(3);
  });

  it('names a rule left out by --rules, and RL-05 as the load\'s', () => {
    const report = reportWith({ 'TS-05': [], 'RL-05': [] }, ALL_ON, { rules: REQUIREMENTS.filter((r) => r.id !== 'TS-05').map((r) => r.id) });
    expect(report.summary.unverifiedMust).toEqual([
      { id: 'RL-05', reason: 'verified by `conformance load`, which has not merged its verdicts into this report', verifiedByLoad: true },
      { id: 'TS-05', reason: 'not among --rules' },
    ]);
    expect(verdictExitCode(report, true)).toBe(3); // --load-follows excuses only the load's rules
  });

  it('exits 0 for a run whose only unverified MUST rule is RL-05 with --load-follows, 3 without', () => {
    const report = reportWith({ 'RL-05': [] });
    expect(report.summary.verdict).toBe('incomplete');
    expect([verdictExitCode(report, false), verdictExitCode(report, true)]).toEqual([3, 0]);
  });

  it('counts MUST rules the target declares off as not-applicable, never as missing', () => {
    const idem = Object.fromEntries(REQUIREMENTS.filter((r) => r.area === 'IDEM').map((r) => [r.id, []]));
    expect(reportWith(idem, { idempotency: false, rateLimiting: true }).summary.verdict).toBe('conformant');
    expect(reportWith(idem).summary.verdict).toBe('incomplete');
  });

  it('a MUST rule whose MUST case passed and a SHOULD case failed is verified; one with only a failed SHOULD case is not', () => {
    const shouldFailed = record(['AUTH-03'], 'failed', { level: 'SHOULD', name: 'bare key [AUTH-03]' });
    const verified = reportWith({ 'AUTH-03': [record(['AUTH-03'], 'passed'), shouldFailed] });
    expect(verified.requirements.find((r) => r.id === 'AUTH-03')!.verdict).toBe('warn');
    expect(verified.summary.verdict).toBe('conformant');
    const unverified = reportWith({ 'AUTH-03': [shouldFailed] });
    expect(unverified.summary).toMatchObject({ verdict: 'incomplete', unverifiedMust: [{ id: 'AUTH-03', reason: 'only SHOULD-level cases failed' }] });
  });

  it('a failure or a run error makes it non-conformant, whatever else is missing', () => {
    expect(reportWith({ 'AUTH-01': [record(['AUTH-01'], 'failed')], 'TS-05': [] }).summary.verdict).toBe('non-conformant');
    const crashed = reportWith({ 'TS-05': [] }, ALL_ON, { errors: ['suites/x.test.ts: boom'] });
    expect(crashed.summary.verdict).toBe('non-conformant');
    expect(verdictExitCode(crashed)).toBe(1);
  });

  it('the page says INCOMPLETE, lists what was not verified and the certification grade', () => {
    const report = reportWith({ 'TS-05': [] });
    report.certification = assessCertification(report, DEFAULT_SETTINGS.run);
    const page = conformanceHtml(report);
    expect(page).toContain('◐ INCOMPLETE');
    expect(page).toContain('<b>TS-05</b>: no test exercised this rule');
    expect(page).toContain('<title>Incomplete');
  });
});

describe('certification grade', () => {
  const released = { commit: 'abc', dirty: true, releaseTag: null, digest: 'sha256:1', release: { version: '0.1.0', digest: 'sha256:1' } };

  it('a run against a candidate with every option at its default, from a released suite, is certification-grade', () => {
    expect(certifiableReport().certification).toEqual({ certificationGrade: true, reasons: [] });
    // why: git decides nothing: a tagged clean checkout without a matching release manifest is not a release
    expect(isReleasedSuite({ version: '0.1.0', commit: 'abc', dirty: false, releaseTag: 'v0.1.0' })).toBe(false);
    expect(isReleasedSuite({ version: '0.1.0', commit: null, dirty: false, releaseTag: null })).toBe(false);
    expect(isReleasedSuite({ version: '0.1.0', ...released })).toBe(true);
  });

  it('names every reason a run cannot certify', () => {
    const report = certifiableReport();
    const crafted = {
      ...report,
      target: { baseUrl: 'http://127.0.0.1:1', embeddedReference: true, faults: ['bearer-accepted'] },
      suite: { ...report.suite, commit: '0123456789abcdef0123', dirty: true, releaseTag: null, digest: 'sha256:2' },
      leaks: ['workflow cft-1-wf'],
      summary: { ...report.summary, interrupted: true },
    };
    const c = assessCertification(crafted, { rules: ['AUTH-01'], expectations: 'gaps.yaml', readOnly: true, noDrain: true });
    expect(c.certificationGrade).toBe(false);
    expect(c.reasons.map((r) => r.code)).toEqual(['rule-subset', 'expectations-baseline', 'embedded-reference', 'reference-fault', 'read-only', 'no-drain', 'interrupted', 'unreleased-suite', 'leaks']);
    expect(c.reasons.find((r) => r.code === 'unreleased-suite')!.text).toBe(`the suite is not a released version: its files (sha256:2) differ from its release manifest of 0.1.0 (${RELEASED_DIGEST})`);
  });

  it('each reason alone takes the grade away', () => {
    const base = certifiableReport();
    const grade = (report: typeof base, run = {}) => assessCertification(report, run).reasons.map((r) => r.code);
    expect(grade(base, { rules: ['AUTH-01'] })).toEqual(['rule-subset']);
    expect(grade({ ...base, expectations: { file: 'g.yaml', matched: 1, unexpected: [], unused: [] } })).toEqual(['expectations-baseline']);
    expect(grade({ ...base, target: { ...base.target, embeddedReference: true } })).toEqual(['embedded-reference']);
    expect(grade(base, { readOnly: true })).toEqual(['read-only']);
    expect(grade(base, { noDrain: true })).toEqual(['no-drain']);
    expect(grade({ ...base, suite: { ...base.suite, commit: 'abc', releaseTag: 'v0.1.0', dirty: false, release: null } })).toEqual(['unreleased-suite']);
    expect(grade({ ...base, suite: { ...base.suite, digest: 'sha256:other' } })).toEqual(['unreleased-suite']);
    expect(grade({ ...base, suite: { ...base.suite, ...released } })).toEqual([]);
    expect(grade({ ...base, leaks: ['x'] })).toEqual(['leaks']);
  });
});
