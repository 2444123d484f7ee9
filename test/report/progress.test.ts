import { describe, expect, it } from 'vitest';
import { printSummary, progressPrinter } from '../../cli/progress.ts';
import { HOSTILE, record, sampleReport } from './sample-report.ts';

describe('terminal progress', () => {
  it('prints failures as they happen and a per-area line with the elapsed time every 25 tests run', () => {
    const lines: string[] = [];
    let now = 0;
    const onRecord = progressPrinter((l) => lines.push(l), () => now);
    onRecord(record(['TRIG-01'], 'skipped', { outcome: 'deselected' }));
    onRecord(record(['AUTH-03'], 'failed', { name: 'Bearer is rejected [AUTH-03]' }));
    for (let i = 0; i < 24; i++) {
      now += 100;
      onRecord(record([i % 2 ? 'AUTH-01' : 'ERR-01'], 'passed'));
    }
    expect(lines).toEqual(['  ✗ [AUTH] Bearer is rejected [AUTH-03]  (suites/auth/x.test.ts)', '  … 2.3 s  24 tests done  AUTH 12 (1 ✗) · ERR 12  (and 1 run for traffic only)']);
  });

  it('counts the tests run only for traffic (under --rules) as progress, so a selective run is never silent', () => {
    const lines: string[] = [];
    let now = 0;
    const onRecord = progressPrinter((l) => lines.push(l), () => now);
    for (let i = 0; i < 50; i++) {
      now += 100;
      onRecord(record(['TRIG-01'], 'skipped', { outcome: 'deselected' }));
    }
    expect(lines).toEqual(['  … 2.5 s  0 tests done  (and 25 run for traffic only)', '  … 5.0 s  0 tests done  (and 50 run for traffic only)']);
  });

  it('also prints after ten quiet seconds, however few tests finished', () => {
    const lines: string[] = [];
    let now = 0;
    const onRecord = progressPrinter((l) => lines.push(l), () => now);
    now = 10_500;
    onRecord(record(['RL-01'], 'passed'));
    expect(lines).toEqual(['  … 10.5 s  1 tests done  RL 1']);
  });

  it('ends with a table of verdicts per area, a total row, and the failed rules', () => {
    const lines: string[] = [];
    printSummary(sampleReport(), (l) => lines.push(l));
    expect(lines.slice(0, 4)).toEqual([
      '',
      '1 root cause breaks 1 MUST rule: expected 401, got 200',
      '      AUTH-03 (1 fail; 1 test)',
      `      e.g. Bearer scheme is rejected ${HOSTILE} [AUTH-03]: expected 401, got 200`,
    ]);
    const header = lines.find((l) => l.startsWith('area'))!;
    expect(header.split(/\s+/)).toEqual(['area', 'pass', 'fail', 'warn', 'not-verified', 'not-applicable', 'rules']);
    expect(lines.find((l) => l.startsWith('AUTH'))!.split(/\s+/)).toEqual(['AUTH', '1', '1', '·', '4', '·', '6']);
    expect(lines.some((l) => l.startsWith('all '))).toBe(true);
    expect(lines).toContain(lines.find((l) => l.startsWith('FAIL AUTH-03 (MUST)')));
    expect(lines.at(-3)).toBe('NON-CONFORMANT: 1 MUST rule failed');
    expect(lines.at(-2)).toMatch(/^1 passed, 1 failed, 1 not verified, 0 not applicable \(60\.0 s\)$/);
    expect(lines).toContain('Certification-grade: no (3 reasons)');
    expect(lines).toContain('  - the target is the embedded reference implementation, not a candidate');
    expect(lines.at(-1)).toBe('tests: 1 passed, 1 failed, 1 skipped');
  });
});
