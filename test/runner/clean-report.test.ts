import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCleanReport, whyNotClean } from '../../harness/runner/clean-report.ts';

const here = { commit: 'a'.repeat(40), dirty: false, releaseTag: null };
const clean = {
  startedAt: '2026-11-25T00:00:00.000Z',
  target: { baseUrl: 'http://127.0.0.1:1', embeddedReference: true, faults: [], declared: {} },
  suite: { name: 'x', version: '0.1.0', ...here },
  summary: { verdict: 'conformant' },
  certification: { certificationGrade: false, reasons: [{ code: 'embedded-reference', text: 'embedded' }, { code: 'unreleased-suite', text: 'unreleased' }] },
  requirements: [{ id: 'AUTH-01', verdict: 'pass', tests: [] }],
  errors: [],
};

describe('prove --clean-report: a conformance report stands for the clean run only when it is one', () => {
  it('takes a full run of this commit against the embedded reference', () => {
    expect(whyNotClean(clean as never, here)).toEqual([]);
    const dir = mkdtempSync(join(tmpdir(), 'cft-clean-'));
    writeFileSync(join(dir, 'conformance.json'), JSON.stringify(clean));
    expect(readCleanReport(join(dir, 'conformance.json'), here)).toMatchObject({ verdicts: clean.requirements, errors: [] });
  });

  it('takes a run a short load merged into (npm test\'s test:load): its load-plan reasons grade certification, not the clean verdicts', () => {
    const loadPlan = { code: 'load-plan', text: 'the load ran the short profile; certification needs the full profile' };
    expect(whyNotClean({ ...clean, certification: { certificationGrade: false, reasons: [...clean.certification.reasons, loadPlan] } } as never, here)).toEqual([]);
  });

  it.for<[string, Record<string, unknown>, RegExp]>([
    ['a candidate target', { target: { ...clean.target, embeddedReference: false } }, /not the embedded reference/],
    ['a fault', { target: { ...clean.target, faults: ['bearer-accepted'] } }, /fault\(s\) bearer-accepted/],
    ['a rule subset', { certification: { reasons: [{ code: 'rule-subset', text: 'only a subset of the rules ran (--rules AUTH-01)' }] } }, /only a subset/],
    ['another commit', { suite: { ...clean.suite, commit: 'b'.repeat(40) } }, /another suite commit/],
    ['uncommitted changes', { suite: { ...clean.suite, dirty: true } }, /uncommitted changes/],
    ['no verdicts', { requirements: [] }, /no verdicts/],
  ])('refuses a run with %s, and says why', ([, change, why]) => {
    expect(whyNotClean({ ...clean, ...change } as never, here).join('; ')).toMatch(why);
  });

  it('names a missing or unreadable file instead of failing the proof', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cft-clean-'));
    writeFileSync(join(dir, 'bad.json'), '{');
    expect(readCleanReport(join(dir, 'none.json'), here)).toEqual({ unusable: expect.stringContaining('does not exist') });
    expect(readCleanReport(join(dir, 'bad.json'), here)).toEqual({ unusable: expect.stringContaining('is not a JSON conformance report') });
  });
});
