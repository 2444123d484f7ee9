// A staging gate's verdict: known gaps pass it; a surprise, a run error, an unstable rule or a stop fail it.
import { describe, expect, it } from 'vitest';
import { gateVerdict } from '../../report/gate.ts';
import { junitXml } from '../../report/junit.ts';
import { stepSummaryMarkdown } from '../../report/step-summary.ts';
import { sampleReport } from './sample-report.ts';

const withBaseline = (unexpected: number, matched = 3) => {
  const report = sampleReport();
  report.expectations = { file: '/ci/baselines/staging.yaml', matched, unused: [], unexpected: Array.from({ length: unexpected }, (_, i) => ({ key: `AUTH-0${i + 1}`, expected: ['fail'], actual: 'pass', kind: 'unexpected-pass' as const })) };
  return report;
};

describe('the gate of a run against a baseline', () => {
  it('passes on known gaps only, and says how many', () => {
    expect(gateVerdict(withBaseline(0))).toEqual({ passed: true, line: 'GATE PASSED: 3 expected gaps, 0 unexpected (baseline staging.yaml)' });
    expect(gateVerdict(sampleReport())).toBeUndefined();
  });

  it('fails on a surprise, a run error or a stop, naming each', () => {
    expect(gateVerdict(withBaseline(2))!.line).toBe('GATE FAILED: 3 expected gaps, 2 unexpected (baseline staging.yaml)');
    const broken = withBaseline(0);
    broken.errors = ['the final sweep could not remove 1 resource'];
    broken.summary.interrupted = true;
    expect(gateVerdict(broken)).toEqual({ passed: false, line: 'GATE FAILED: 3 expected gaps, 0 unexpected, the run was interrupted, 1 run error (baseline staging.yaml)' });
  });

  it('a failed gate is a failed JUnit testcase and a red line of the job summary', () => {
    const report = withBaseline(1);
    expect(junitXml(report)).toMatch(/<testcase classname="summary" name="gate against the baseline: failed"[^>]*>[\s\S]*?<failure message="GATE FAILED: 3 expected gaps, 1 unexpected/);
    expect(stepSummaryMarkdown(report)).toContain('**❌ GATE FAILED: 3 expected gaps, 1 unexpected (baseline staging.yaml)**');
    expect(stepSummaryMarkdown(report)).toContain('- **unexpected**: AUTH-01 is pass, the baseline expects fail');
  });
});
