// A small conformance report and its records, for tests of the artifacts written from them.
import { REQUIREMENTS } from '../../requirements/index.ts';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { assessCertification } from '../../certify/certification.ts';
import { computeVerdicts } from '../../report/verdicts.ts';
import { buildReport, type ConformanceReport } from '../../report/conformance-report.ts';
import type { TestRecord } from '../../report/test-record.ts';

export const record = (rules: string[], state: TestRecord['state'], extra: Partial<TestRecord> = {}): TestRecord => ({
  name: `${rules.join(', ')} ${state}`,
  file: 'suites/auth/x.test.ts',
  rules,
  state,
  durationMs: 12,
  observations: [],
  evidence: [],
  leaks: [],
  notes: [],
  ...extra,
});

export const HOSTILE = `</pre><script>alert("x")</script> & 'quotes' \u0001`;

export function sampleRecords(): TestRecord[] {
  return [
    record(['AUTH-01'], 'passed'),
    record(['AUTH-03'], 'failed', {
      name: `Bearer scheme is rejected ${HOSTILE} [AUTH-03]`,
      message: `expected 401, got 200\n\nRule: AUTH-03 (MUST, authentication): …\n\nLast exchange: GET http://t/v1/environments → 200`,
      evidence: [`GET http://t/v1/environments → 200\n  body: {"data":[]}\n  reproduce: curl -sS -i -X GET 'http://t/v1/environments' -H "authorization: Bearer \${CONFORMANCE_API_KEY}"`],
    }),
    record(['AUTH-04'], 'skipped', { outcome: 'not-verified', reason: 'no restricted API key configured' }),
    record(['TRIG-01'], 'skipped', { outcome: 'deselected', reason: 'not among --rules' }),
  ];
}

export function sampleReport(records = sampleRecords(), errors: string[] = []): ConformanceReport {
  const report = buildReport({
    target: { baseUrl: 'http://127.0.0.1:1', embeddedReference: true, faults: ['bearer-accepted'], declared: { idempotency: true, rateLimiting: false, triggerRps: 60 } },
    startedAt: new Date('2026-01-01T00:00:00Z'),
    finishedAt: new Date('2026-01-01T00:01:00Z'),
    requirements: computeVerdicts(records, { idempotency: true, rateLimiting: true }),
    leaks: [],
    errors,
  });
  // from an unreleased suite, whatever the checkout the tests run in is (at a release commit it is a release)
  report.suite = { ...report.suite, commit: null, dirty: false, releaseTag: null, digest: UNRELEASED_DIGEST, release: null };
  report.certification = assessCertification(report, DEFAULT_SETTINGS.run);
  return report;
}

/** The digest of the unreleased suite of sampleReport(). */
export const UNRELEASED_DIGEST = `sha256:${'d'.repeat(64)}`;

/** The digest of a released suite's files in the reports below: pass it as --suite-digest (the published digest). */
export const RELEASED_DIGEST = `sha256:${'c'.repeat(64)}`;

/**
 * A report that can back a certification: every rule passed against a candidate, from a released suite (its files
 * hash to its release manifest: RELEASED_DIGEST), with its certification grade assessed as a run would.
 */
export function certifiableReport(): ConformanceReport {
  const records = REQUIREMENTS.map((r) => record([r.id], 'passed'));
  const report = buildReport({
    target: { baseUrl: 'https://candidate.example.test', embeddedReference: false, faults: [] },
    startedAt: new Date('2026-01-01T00:00:00Z'),
    finishedAt: new Date('2026-01-01T00:01:00Z'),
    requirements: computeVerdicts(records, { idempotency: true, rateLimiting: true }),
    leaks: [],
    errors: [],
  });
  report.suite = { ...report.suite, commit: null, dirty: false, releaseTag: null, digest: RELEASED_DIGEST, release: { version: report.suite.version, digest: RELEASED_DIGEST } };
  report.certification = assessCertification(report, DEFAULT_SETTINGS.run);
  return report;
}
