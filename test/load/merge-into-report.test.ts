// Merging load verdicts into conformance.json: RL rules gain the load tests, verdicts and summary are recomputed.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildReport, verdictExitCode, writeReport, type ConformanceReport } from '../../report/conformance-report.ts';
import { REQUIREMENTS } from '../../requirements/index.ts';
import { certifiableReport, record } from '../report/sample-report.ts';
import { computeVerdicts } from '../../report/verdicts.ts';
import { mergeIntoReport, mergeReport } from '../../load/merge-into-report.ts';
import { reportLoad, type LoadDocument } from '../../load/load-report.ts';
import { SCENARIO_NAMES } from '../../load/scenarios/index.ts';
import type { LoadRuleVerdict } from '../../load/verdict/judge.ts';

const dir = mkdtempSync(join(tmpdir(), 'load-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base = { target: { baseUrl: 'http://127.0.0.1:1', embeddedReference: true, faults: [] }, startedAt: new Date(0), finishedAt: new Date(1000), leaks: [], errors: [] };

function report(rateLimiting = true): ConformanceReport {
  return buildReport({ ...base, requirements: computeVerdicts([], { idempotency: true, rateLimiting }) });
}

const test_ = (name: string, status: 'passed' | 'failed') => ({ name: `load trigger-limit (node): ${name} [RL-05]`, status, durationMs: 10 });
const verdicts = (status: 'passed' | 'failed'): LoadRuleVerdict[] => [{ id: 'RL-05', level: 'MUST', verdict: status === 'passed' ? 'pass' : 'fail', tests: [test_('converges', status)] }];

/** A load run's document as `conformance load` writes it: the full profile, every scenario, against `baseUrl`; `edit` changes it. */
function loadDoc(baseUrl: string, status: 'passed' | 'failed', edit: (d: LoadDocument) => void = () => undefined): LoadDocument {
  const doc = {
    engine: 'node',
    profile: 'full',
    target: { baseUrl, embeddedReference: false, faults: [] },
    expectedRps: 200,
    startedAt: new Date(0).toISOString(),
    verdicts: verdicts(status),
    leaks: [],
    timelines: SCENARIO_NAMES.map((scenario) => ({ scenario, engine: 'node', target: baseUrl, plan: { phases: [{ name: 'over-limit' }] }, routes: {} })),
  } as unknown as LoadDocument;
  edit(doc);
  return doc;
}

describe('merge of load verdicts into conformance.json', () => {
  test('a failed load test fails its MUST rule and the summary follows', () => {
    const merged = mergeReport(report(), verdicts('failed'));
    const rl05 = merged.requirements.find((r) => r.id === 'RL-05')!;
    expect(rl05.verdict).toBe('fail');
    expect(rl05.tests.map((t) => t.status)).toEqual(['failed']);
    expect(merged.summary.verdict).toBe('non-conformant');
    expect(merged.summary.counts.MUST.fail).toBe(1);
    expect(merged.summary.tests).toMatchObject({ total: 1, failed: 1 });
    const perLevel = Object.values(merged.summary.counts.MUST).reduce((a, b) => a + b, 0);
    expect(perLevel).toBe(merged.requirements.filter((r) => r.level === 'MUST').length);
  });

  test('a passed load test turns a not-verified rule into pass; merging twice replaces, not duplicates', () => {
    const once = mergeReport(report(), verdicts('failed'));
    const twice = mergeReport(once, verdicts('passed'));
    const rl05 = twice.requirements.find((r) => r.id === 'RL-05')!;
    expect(rl05.verdict).toBe('pass');
    expect(rl05.tests).toHaveLength(1);
    expect(twice.summary.verdict).toBe('incomplete'); // every other MUST rule of this report is still not verified
    expect(twice.summary.unverifiedMust.map((r) => r.id)).not.toContain('RL-05');
  });

  test('a check a starved generator left unjudged keeps RL-05 not verified beside a passed one, with the lag as the reason', () => {
    const starved = { ...test_('converges', 'passed'), status: 'not-verified' as const, message: 'the load generator fell behind its schedule in [2.30 s, 5.90 s) (74 request(s) overdue at 5 s)' };
    const merged = mergeReport(report(), [{ id: 'RL-05', level: 'MUST', verdict: 'not-verified', tests: [{ ...test_('declares 200/s', 'passed'), message: 'declares 200/s' }, starved] }]);
    const rl05 = merged.requirements.find((r) => r.id === 'RL-05')!;
    expect(rl05.verdict).toBe('not-verified');
    expect(rl05.reason).toBe(starved.message);
    expect(merged.summary.unverifiedMust.map((r) => r.id)).toContain('RL-05');
  });

  test('a run whose only unverified MUST rule is RL-05 is incomplete until the load merges, then conformant, keeping the rest', () => {
    const records = REQUIREMENTS.filter((r) => r.id !== 'RL-05').map((r) => record([r.id], 'passed'));
    const run = buildReport({ ...base, requirements: computeVerdicts(records, { idempotency: true, rateLimiting: true }) });
    run.certification = { certificationGrade: false, reasons: [{ code: 'embedded-reference', text: 'x' }] };
    run.expectations = { file: 'b.yaml', matched: 0, unexpected: [], unused: [] };
    expect(run.summary).toMatchObject({ verdict: 'incomplete', unverifiedMust: [{ id: 'RL-05', verifiedByLoad: true }] });
    expect([verdictExitCode(run), verdictExitCode(run, true)]).toEqual([3, 0]);
    const merged = mergeReport(run, verdicts('passed'));
    expect(merged.summary).toMatchObject({ verdict: 'conformant', unverifiedMust: [] });
    expect(verdictExitCode(merged)).toBe(0);
    expect(merged.certification).toEqual(run.certification);
    expect(merged.expectations).toEqual(run.expectations);
    expect(verdictExitCode(mergeReport(run, verdicts('failed')), true)).toBe(1);
  });

  test('rules of a target that declares rate limiting off stay not-applicable', () => {
    const merged = mergeReport(report(false), verdicts('failed'));
    expect(merged.requirements.find((r) => r.id === 'RL-05')!.verdict).toBe('not-applicable');
  });

  test('mergeIntoReport rewrites DIR/conformance.json and skips a missing one', () => {
    expect(mergeIntoReport(join(dir, 'absent'), verdicts('failed'), undefined)).toBeUndefined();
    writeReport(dir, report());
    expect(mergeIntoReport(dir, verdicts('failed'), undefined)?.file).toBe(join(dir, 'conformance.json'));
    const onDisk = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(onDisk.requirements.find((r) => r.id === 'RL-05')!.verdict).toBe('fail');
  });

  test('junit.xml, conformance.html and the Allure results carry the merged verdicts too, replaced on a re-merge', () => {
    const out = mkdtempSync(join(tmpdir(), 'load-merge-artifacts-'));
    writeReport(out, report());
    const loadResults = () =>
      readdirSync(join(out, 'allure-results'))
        .filter((f) => f.endsWith('-result.json'))
        .map((f) => JSON.parse(readFileSync(join(out, 'allure-results', f), 'utf8')) as { name: string; status: string; labels: { name: string; value: string }[] });
    mergeIntoReport(out, verdicts('failed'), undefined);
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuite name="load" tests="1" failures="1"[^]*<testcase classname="load" name="load trigger-limit \(node\): converges \[RL-05\]"[^]*<property name="rule" value="RL-05"\/>[^]*<failure /);
    expect(readFileSync(join(out, 'conformance.html'), 'utf8')).toContain('load trigger-limit (node): converges [RL-05]');
    expect(loadResults()).toEqual([expect.objectContaining({ name: 'load trigger-limit (node): converges [RL-05]', status: 'failed', labels: expect.arrayContaining([{ name: 'rule', value: 'RL-05' }]) as unknown })]);
    mergeIntoReport(out, verdicts('passed'), undefined);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(/<testsuite name="load" tests="1" failures="0"/);
    expect(loadResults().map((r) => r.status)).toEqual(['passed']);
  });

  describe('the certification grade of the merged report judges the load plan, as verify-bundle does', () => {
    const baseUrl = certifiableReport().target.baseUrl;

    test('a full, uninterrupted load of every scenario against the run\'s target keeps a certifiable run certification-grade', () => {
      const merged = mergeReport(certifiableReport(), verdicts('passed'), loadDoc(baseUrl, 'passed'));
      expect(merged.certification).toEqual({ certificationGrade: true, reasons: [] });
    });

    test.for([
      ['--profile short', (d: any): void => { d.profile = 'short'; }, /^the load ran the short profile; certification needs the full profile/],
      ['--scenario trigger-under-limit', (d: any): void => { d.timelines = d.timelines.filter((t: any) => t.scenario === 'trigger-under-limit'); }, /^the load left out trigger-limit, headers-under-load, bulk-cost, category-isolation/],
      ['an interrupted load', (d: any): void => { d.interrupted = { signal: 'SIGINT', cut: [], notRun: ['bulk-cost'] }; }, /^the load run was interrupted before its end$/],
      ['--from-timelines', (d: any): void => { d.target = { ...d.target, fromTimelines: ['/tmp/t1.json'] }; }, /^the load verdicts were judged from timelines recorded elsewhere \(--from-timelines\)/],
    ] as const)('%s: "Certification-grade: no" with the reason, in the terminal, conformance.json, junit.xml and the HTML', ([, edit, why]) => {
      const out = mkdtempSync(join(tmpdir(), 'load-merge-grade-'));
      try {
        writeReport(out, certifiableReport());
        const lines: string[] = [];
        reportLoad(out, loadDoc(baseUrl, 'passed', edit), { log: (line) => lines.push(line) });
        const onDisk = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
        expect(onDisk.certification?.certificationGrade).toBe(false);
        expect(onDisk.certification?.reasons).toEqual([{ code: 'load-plan', text: expect.stringMatching(why) }]);
        const text = onDisk.certification!.reasons[0]!.text;
        expect(lines.join('\n')).toContain(`Certification-grade: no (1 reason)\n  - ${text}`);
        expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toContain('<property name="certification-grade" value="false"/>');
        expect(readFileSync(join(out, 'conformance.html'), 'utf8')).toMatch(/Certification-grade: no \(1 reason\)<ul class="reasons"><li>the load /);
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    });

    test('a second, full load merged into the same report restores the grade (the load-plan reasons are replaced, not piled up)', () => {
      const short = mergeReport(certifiableReport(), verdicts('passed'), loadDoc(baseUrl, 'passed', (d) => (d.profile = 'short')));
      expect(short.certification?.certificationGrade).toBe(false);
      expect(mergeReport(short, verdicts('passed'), loadDoc(baseUrl, 'passed')).certification).toEqual({ certificationGrade: true, reasons: [] });
    });
  });
});
