import { describe, expect, it } from 'vitest';
import { computeVerdicts } from '../../report/verdicts.ts';
import { RULE_IDS } from '../../requirements/index.ts';
import type { TestRecord } from '../../report/test-record.ts';

const on = { idempotency: true, rateLimiting: true };
const record = (rules: string[], state: TestRecord['state'], extra: Partial<TestRecord> = {}): TestRecord => ({
  name: `${state} ${rules.join(',')} ${Math.random()}`,
  file: 'suites/x.test.ts',
  rules,
  state,
  durationMs: 1,
  observations: [],
  evidence: [],
  leaks: [],
  notes: [],
  ...extra,
});
const verdictOf = (id: string, records: TestRecord[], features = on) => computeVerdicts(records, features).find((r) => r.id === id)!;

describe('computeVerdicts', () => {
  it('lists every rule of the catalog exactly once', () => {
    expect(computeVerdicts([], on).map((r) => r.id)).toEqual([...RULE_IDS]);
  });

  it('never passes a rule that no test exercised', () => {
    expect(verdictOf('TRIG-01', [])).toMatchObject({ verdict: 'not-verified', reason: 'no test exercised this rule' });
  });

  it('fails a MUST rule and warns on a SHOULD rule when a test fails', () => {
    expect(verdictOf('TRIG-01', [record(['TRIG-01'], 'passed'), record(['TRIG-01'], 'failed')]).verdict).toBe('fail');
    expect(verdictOf('TRIG-07', [record(['TRIG-07'], 'failed')]).verdict).toBe('warn');
  });

  it('warns when only a SHOULD-level case of a MUST rule fails', () => {
    expect(verdictOf('AUTH-03', [record(['AUTH-03'], 'passed'), record(['AUTH-03'], 'failed', { level: 'SHOULD' })]).verdict).toBe('warn');
  });

  it('keeps not-verified and not-applicable apart from pass', () => {
    expect(verdictOf('AUTH-04', [record(['AUTH-04'], 'skipped', { outcome: 'not-verified', reason: 'no restricted key' })])).toMatchObject({
      verdict: 'not-verified',
      reason: 'no restricted key',
    });
    expect(verdictOf('IDEM-02', [record(['IDEM-02'], 'passed')], { idempotency: false, rateLimiting: true }).verdict).toBe('not-applicable');
    expect(verdictOf('RL-10', [], { idempotency: true, rateLimiting: false }).verdict).toBe('not-applicable');
  });

  it('does not pass a rule on one test when another of its tests could not verify its aspect', () => {
    const gap = record(['RL-07'], 'skipped', { outcome: 'not-verified', reason: 'Retry-After exceeds timeouts.maxRetryAfterS' });
    expect(verdictOf('RL-07', [record(['RL-07'], 'passed'), gap])).toMatchObject({ verdict: 'not-verified', reason: expect.stringContaining('Retry-After exceeds') });
    expect(verdictOf('TRIG-01', [record(['TRIG-01'], 'passed'), record(['TRIG-01'], 'skipped', { outcome: 'not-verified', reason: 'x' })]).verdict).toBe('not-verified');
  });

  it('passes a rule whose not-verified test checks an aspect declared optional, or a SHOULD-level case of a MUST rule', () => {
    const longCheck = record(['IDEM-02'], 'skipped', { name: 'a keyed workflow creation repeated 25 s later is still replayed and creates nothing [IDEM-02]', outcome: 'not-verified', reason: '--long-checks' });
    const verdict = verdictOf('IDEM-02', [record(['IDEM-02'], 'passed'), longCheck]);
    expect(verdict.verdict).toBe('pass');
    expect(verdict.tests.find((t) => t.status === 'not-verified')?.optional).toMatch(/retention/);
    expect(verdictOf('RL-02', [record(['RL-02'], 'passed'), record(['RL-02'], 'skipped', { outcome: 'not-verified', reason: 'x', level: 'SHOULD' })]).verdict).toBe('pass');
  });

  it('ignores deselected tests', () => {
    expect(verdictOf('TRIG-01', [record(['TRIG-01'], 'skipped', { outcome: 'deselected' })]).tests).toEqual([]);
  });

  it('turns passive observations into one entry per rule', () => {
    const observed = record(['AUTH-01'], 'passed', {
      observations: [
        { rule: 'ERR-01', checked: 4, violations: [] },
        { rule: 'ERR-09', checked: 2, violations: ['JSON body served with Content-Type "text/plain"'] },
      ],
    });
    expect(verdictOf('ERR-01', [observed])).toMatchObject({ verdict: 'pass', tests: [{ name: 'every exchange of the run (4 checked)', status: 'passed' }] });
    expect(verdictOf('ERR-09', [observed]).verdict).toBe('fail');
  });
});

describe('computeVerdicts keeps evidence honest', () => {
  it('a MUST rule whose only passing tests are SHOULD-level cases is not verified', () => {
    expect(verdictOf('AUTH-03', [record(['AUTH-03'], 'passed', { level: 'SHOULD' }), record(['AUTH-03'], 'skipped', { outcome: 'not-verified' })])).toMatchObject({
      verdict: 'not-verified',
      reason: 'only SHOULD-level cases of this MUST rule ran',
    });
  });

  it('a rule skipped by the expectations file gets no credit from passive checks', () => {
    const observed = record(['AUTH-01'], 'passed', { observations: [{ rule: 'ERR-01', checked: 9, violations: [] }] });
    const skipped = record(['ERR-01'], 'skipped', { outcome: 'not-verified', reason: 'skipped by the expectations file: later' });
    expect(computeVerdicts([observed, skipped], on, { 'ERR-01': 'later' }).find((r) => r.id === 'ERR-01')).toMatchObject({ verdict: 'not-verified' });
  });
});
