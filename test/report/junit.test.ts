import { describe, expect, it } from 'vitest';
import { junitXml } from '../../report/junit.ts';
import { HOSTILE, sampleRecords, sampleReport } from './sample-report.ts';

describe('junitXml', () => {
  const records = sampleRecords();
  const xml = junitXml(sampleReport(records, ["suites/x.test.ts: boom"]));

  it('has one testcase per test that ran, with rule and level properties', () => {
    const cases = xml.match(/<testcase /g) ?? [];
    expect(cases).toHaveLength(3 + 1 + 1); // three tests (the deselected one is left out) + one run error + the summary
    expect(xml).toContain('<property name="rule" value="AUTH-03"/>');
    expect(xml).toContain('<property name="level" value="MUST"/>');
    expect(xml).not.toMatch(/<testcase [^>]*TRIG-01/);
  });

  it('reports failures with their message, skips with their reason, run errors as errors', () => {
    expect(xml).toMatch(/<failure message="expected 401, got 200" type="AssertionError">expected 401, got 200/);
    expect(xml).toContain('curl -sS -i -X GET');
    expect(xml).toContain('<skipped message="not-verified: no restricted API key configured"/>');
    expect(xml).toContain('<error message="suites/x.test.ts: boom">');
    expect(xml).toMatch(/<testsuites [^>]*tests="5" failures="2" errors="1" skipped="1"/);
  });

  it('escapes names and drops characters XML cannot carry', () => {
    expect(xml).not.toContain(HOSTILE);
    expect(xml).not.toContain('<script>');
    expect(xml).not.toContain('\u0001');
    expect(xml).toContain('&lt;/pre&gt;&lt;script&gt;');
  });

  it('adds a testcase per rule checked passively over all traffic', () => {
    const withPassive = sampleRecords();
    withPassive[0]!.observations = [{ rule: 'ERR-01', checked: 4, violations: ['no timestamp'] }];
    const doc = junitXml(sampleReport(withPassive));
    expect(doc).toMatch(/<testcase classname="passive checks" name="ERR-01: every exchange of the run \(4 checked\)"[^]*?<failure message="ERR-01 violated in recorded traffic"/);
  });

  it('carries the summary verdict and certification grade: failure when non-conformant, skipped when incomplete', () => {
    expect(xml).toMatch(/<testcase classname="summary" name="summary verdict: non-conformant"[^]*?<property name="certification-grade" value="false"\/>[^]*?<failure message="non-conformant: 1 MUST rule failed · 1 run error"/);
    const incomplete = sampleReport(records.filter((r) => r.state !== 'failed'));
    expect(incomplete.summary.verdict).toBe('incomplete');
    const doc = junitXml(incomplete);
    expect(doc).toMatch(/<testcase classname="summary" name="summary verdict: incomplete"[^]*?<skipped message="incomplete: no MUST rule failed, but \d+ MUST rules were not verified/);
    expect(doc).toContain('Certification-grade: no (3 reasons)');
  });

  it('is written from the report alone: a verdict a load merge changed changes the summary testcase and the totals', () => {
    const incomplete = sampleReport(records.filter((r) => r.state !== 'failed'));
    const after = junitXml({ ...incomplete, summary: { ...incomplete.summary, verdict: 'non-conformant' } });
    expect(after).toMatch(/<testcase classname="summary" name="summary verdict: non-conformant"/);
    expect(after.match(/classname="summary"/g)).toHaveLength(1);
    expect(junitXml(incomplete)).toMatch(/<testcase classname="summary" name="summary verdict: incomplete"/);
  });
});
