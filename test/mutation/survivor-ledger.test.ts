import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of Stryker's plugins (mutation/), with JSDoc types only
import { accountSurvivors, formatAccount, parseLedger, tableCells } from '../../mutation/survivor-ledger.mjs';

// reference/auth.ts of the fixture: line 2 holds the trim, line 3 the scheme test, line 4 an `||`
const SOURCE = ['// auth', '  const m = header.trim();', 'if (/^apikey\\s*$/i.test(h)) return null;', 'const x = a || b;', ''].join('\n');

const LEDGER = `# Surviving mutants

## reference/auth.ts

### Equivalent

| at | code | mutant | why |
|---|---|---|---|
| 3:5-3:27 | \`/^apikey\\s*$/i.test(h)\` | ConditionalExpression → \`false\` | equivalent: both branches return null unless a fault is on |
| 2:13-2:26 | \`header.trim()\` | MethodExpression → \`header\` | equivalent: node's HTTP parser already trims header values |
| 4:11-4:17 | \`a \\|\\| b\` | LogicalOperator → \`a && b\` | open: an escaped pipe in code |

### Gaps, now killed

| mutant | what it did | killed by |
|---|---|---|
| 5:24 | ignored table | not the ledger |
`;

type Mutant = { start: [number, number]; end: [number, number]; mutator: string; replacement: string; status: string };

function report(files: Record<string, { source: string; mutants: Mutant[] }>) {
  return {
    files: Object.fromEntries(
      Object.entries(files).map(([file, { source, mutants }]) => [
        file,
        {
          source,
          mutants: mutants.map((m, i) => ({ id: `${file}-${i}`, mutatorName: m.mutator, replacement: m.replacement, status: m.status, location: { start: { line: m.start[0], column: m.start[1] }, end: { line: m.end[0], column: m.end[1] } } })),
        },
      ]),
    ),
  };
}

const trim: Mutant = { start: [2, 13], end: [2, 26], mutator: 'MethodExpression', replacement: 'header', status: 'Survived' };
const scheme: Mutant = { start: [3, 5], end: [3, 27], mutator: 'ConditionalExpression', replacement: 'false', status: 'Survived' };
const or: Mutant = { start: [4, 11], end: [4, 17], mutator: 'LogicalOperator', replacement: 'a && b', status: 'Survived' };
const row = (cells: string) => `## reference/a.ts\n\n| at | code | mutant | why |\n|---|---|---|---|\n${cells}\n`;
const lines = (xs: { line: number }[]) => xs.map((s) => s.line);

describe('the survivor ledger (docs/mutation-survivors.md)', () => {
  it('reads only the at | code | mutant | why tables: one mutant a row, with its start, end, code and replacement', () => {
    const rows = parseLedger(LEDGER);
    expect(rows).toHaveLength(3);
    expect(rows[1]).toMatchObject({ file: 'reference/auth.ts', start: { line: 2, column: 13 }, end: { line: 2, column: 26 }, code: 'header.trim()', mutator: 'MethodExpression', replacement: 'header' });
    expect(rows[2].code).toBe('a || b');
    expect(rows.map((r: { kind: string }) => r.kind)).toEqual(['equivalent', 'equivalent', 'open']);
    expect(rows[0].why).toBe('both branches return null unless a fault is on');
  });

  it('keeps an escaped pipe inside a cell', () => {
    expect(tableCells('| a \\|\\| b | c |')).toEqual(['a || b', 'c']);
  });

  it('refuses a row that could name more than one mutant, naming its line', () => {
    expect(() => parseLedger(row('| 3:1-3:2 | `x` | * | open: why |'))).toThrow(/docs line 5: "\*" does not name one mutant/);
    expect(() => parseLedger(row('| 3:1-3:2 | `x` | Regex | open: why |'))).toThrow(/docs line 5: "Regex" does not name one mutant/);
    expect(() => parseLedger(row('| 3:1 | `x` | Regex → `/a/` | open: why |'))).toThrow(/docs line 5: "3:1" is not a start-end position/);
    expect(() => parseLedger(row('| 3:1-3:2 |  | Regex → `/a/` | open: why |'))).toThrow(/docs line 5: a ledger row gives the original code/);
    expect(() => parseLedger(row('| 3:1-3:2 | `x` | Regex → `/a/` |  |'))).toThrow(/docs line 5: a ledger row says why/);
    expect(() => parseLedger(row('| 3:1-3:2 | `x` | Regex → `/a/` | no rule reads it |'))).toThrow(/docs line 5: a ledger row's why starts with its kind/);
    expect(() => parseLedger(row('| 3:1-3:2 | `x` | Regex → `/a/` | open: |'))).toThrow(/docs line 5: a ledger row's why starts with its kind/);
    expect(() => parseLedger('## reference/a.ts\n\n| at | code | mutants | why |\n|---|---|---|---|\n')).toThrow(/docs line 3: a ledger table of the old form/);
  });

  it('accounts a survivor only by its file, start, end, mutator and replacement', () => {
    const account = accountSurvivors(
      report({
        'reference/auth.ts': {
          source: SOURCE,
          mutants: [
            scheme,
            trim,
            or,
            // same start and mutator as a row, another end or another replacement: another mutant, not accounted for
            { ...scheme, end: [3, 20] },
            { ...scheme, replacement: 'true' },
            { ...trim, status: 'Killed' as const, replacement: 'header.toLowerCase()' },
            { ...trim, status: 'NoCoverage' as const, start: [1, 1] as [number, number] },
          ],
        },
      }),
      parseLedger(LEDGER),
    );
    expect(lines(account.accounted)).toEqual([3, 2, 4]);
    expect(account.unaccounted.map((s: { end: { column: number }; replacement: string }) => `${s.end.column} ${s.replacement}`)).toEqual(['20 false', '27 true']);
    expect(account.ledgerErrors).toEqual([]);
    // 1 killed of 6 covered; without the 3 listed equivalents, 1 of 3
    expect(account.scoreOfCovered).toBeCloseTo(100 / 6);
    expect(account.scoreWithoutEquivalents).toBeCloseTo(100 / 3);
    // the open row's mutant and the one no test reaches change an answer: both stay in the count as missed, 1 of 5
    expect(account.scoreOfAnswerChanging).toBeCloseTo(100 / 5);
    expect(formatAccount(account, 'docs/mutation-survivors.md')).toContain('the open and the not covered counted as missed): 20.0 %');
    expect(formatAccount(account, 'docs/mutation-survivors.md')).toContain('3 listed as equivalent in docs/mutation-survivors.md (2 truly equivalent, 1 open for conformance)');
  });

  it('reports a killed mutant that starts surviving as not accounted for, whatever rows sit at its place', () => {
    const before = report({ 'reference/auth.ts': { source: SOURCE, mutants: [scheme, trim, or, { ...scheme, replacement: 'true', status: 'Killed' }] } });
    const rows = parseLedger(LEDGER);
    expect(accountSurvivors(before, rows).unaccounted).toEqual([]);
    const regressed = report({ 'reference/auth.ts': { source: SOURCE, mutants: [scheme, trim, or, { ...scheme, replacement: 'true', status: 'Survived' }] } });
    const account = accountSurvivors(regressed, rows);
    expect(account.unaccounted).toEqual([expect.objectContaining({ line: 3, column: 5, mutator: 'ConditionalExpression', replacement: 'true' })]);
    expect(account.scoreWithoutEquivalents).toBeCloseTo(0);
    expect(formatAccount(account, 'docs/mutation-survivors.md')).toContain('0 killed by the long-checks pass, 1 not accounted for');
  });

  it('makes a row that names a killed mutant an error of the run', () => {
    const account = accountSurvivors(report({ 'reference/auth.ts': { source: SOURCE, mutants: [scheme, { ...trim, status: 'Killed' }, or] } }), parseLedger(LEDGER));
    expect(account.ledgerErrors).toEqual([expect.stringMatching(/^docs line 10 \(reference\/auth.ts 2:13-2:26 MethodExpression\) lists a mutant this run killed as equivalent/)]);
    expect(lines(account.accounted)).toEqual([3, 4]);
    expect(formatAccount(account, 'docs/mutation-survivors.md')).toContain('Ledger errors (1; the ledger contradicts this run');
  });

  it('makes a shortened replacement that fits two mutants an error of the run', () => {
    const source = 'const s = `a very long template literal that the ledger shortens`;\n';
    const long = { start: [1, 11] as [number, number], end: [1, 67] as [number, number], mutator: 'StringLiteral', status: 'Survived' };
    const rows = parseLedger(row('| 1:11-1:67 | `` `a very long … ledger shortens` `` | StringLiteral → `` `a … ` `` | open: why |'));
    const account = accountSurvivors(report({ 'reference/a.ts': { source, mutants: [{ ...long, replacement: '`a b`' }, { ...long, replacement: '`a c`' }] } }), rows);
    expect(account.ledgerErrors).toEqual([expect.stringMatching(/fits 2 mutants .*give the replacement whole/)]);
    expect(account.unaccounted).toHaveLength(2);
  });

  it('compares the original code: a row whose code moved away is reported, never applied', () => {
    const rows = parseLedger(LEDGER);
    // a line inserted above: the trim is now on line 3, and line 2 holds other code of the same length
    const source = ['// auth', '  const m = headers.at(0);', '  const m = header.trim();', 'if (/^apikey\\s*$/i.test(h)) return null;', 'const x = a || b;', ''].join('\n');
    const account = accountSurvivors(report({ 'reference/auth.ts': { source, mutants: [{ ...trim }, { ...trim, start: [3, 13], end: [3, 26] }] } }), rows);
    expect(account.accounted).toEqual([]);
    expect(account.moved.map((r: { docLine: number }) => r.docLine)).toEqual([9, 10, 11]);
    expect(account.moved.find((r: { docLine: number }) => r.docLine === 10).here).toBe('headers.at(0)');
    // the survivor at the new place gets a pointer to the row that fits it
    expect(account.unaccounted).toEqual([expect.objectContaining({ line: 2 }), expect.objectContaining({ line: 3, movedRow: 10 })]);
    expect(formatAccount(account, 'docs/mutation-survivors.md')).toContain('reference/auth.ts:3:13-3:26 MethodExpression → header   (the row at docs line 10 fits: its location moved?)');
  });

  it('lists the rows that name no survivor of a file the run mutated as stale', () => {
    const account = accountSurvivors(report({ 'reference/auth.ts': { source: SOURCE, mutants: [scheme, trim] }, 'reference/b.ts': { source: '', mutants: [] } }), parseLedger(LEDGER));
    expect(account.stale.map((r: { docLine: number }) => r.docLine)).toEqual([11]);
    expect(account.ledgerErrors).toEqual([]);
  });

  it('counts a survivor the long-checks pass killed as detected, only when that pass mutated the same source', () => {
    const ttl = 'export const COMPLETED_TTL_MS = 24 * 60 * 60 * 1000;\n';
    const survivor: Mutant = { start: [1, 33], end: [1, 45], mutator: 'ArithmeticOperator', replacement: '24 * 60 / 60', status: 'Survived' };
    const main = report({ 'reference/idempotency-ttl.ts': { source: ttl, mutants: [survivor, { ...survivor, start: [1, 30], status: 'Killed' }] } });
    const killedThere = report({ 'reference/idempotency-ttl.ts': { source: ttl, mutants: [{ ...survivor, status: 'Killed' }] } });
    const account = accountSurvivors(main, [], killedThere);
    expect(account.killedByLongChecks).toEqual([expect.objectContaining({ file: 'reference/idempotency-ttl.ts', line: 1, column: 33 })]);
    expect(account.unaccounted).toEqual([]);
    expect(account.scoreOfCovered).toBeCloseTo(50);
    expect(account.scoreWithoutEquivalents).toBeCloseTo(100);
    expect(formatAccount(account, 'docs/mutation-survivors.md')).toContain('1 killed by the long-checks pass, 0 not accounted for');
    // a pass where it survived too, or over another version of the file, or another end, accounts for nothing
    expect(accountSurvivors(main, [], report({ 'reference/idempotency-ttl.ts': { source: ttl, mutants: [survivor] } })).unaccounted).toHaveLength(1);
    expect(accountSurvivors(main, [], report({ 'reference/idempotency-ttl.ts': { source: `// moved\n${ttl}`, mutants: [{ ...survivor, status: 'Killed' }] } })).unaccounted).toHaveLength(1);
    expect(accountSurvivors(main, [], report({ 'reference/idempotency-ttl.ts': { source: ttl, mutants: [{ ...survivor, end: [1, 40], status: 'Killed' }] } })).unaccounted).toHaveLength(1);
    expect(accountSurvivors(main, []).unaccounted).toHaveLength(1);
  });
});
