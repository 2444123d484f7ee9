import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of Stryker's plugins (mutation/), with JSDoc types only
import { accountSurvivors, formatAccount, parseLedger, tableCells } from '../../mutation/survivor-ledger.mjs';

const LEDGER = `# Surviving mutants

## reference/auth.ts

### Equivalent

| at | code | mutants | why |
|---|---|---|---|
| 23:7 | \`/^apikey\\s*$/i.test(h)\` | ConditionalExpression; Regex | both branches return null unless a fault is on |
| 12:13, 40:2 | \`header.trim()\` | MethodExpression → \`header\` | node's HTTP parser already trims header values |
| 36:10 | \`a \\|\\| b\` | LogicalOperator → \`a && b\` | an escaped pipe in code |

### Gaps, now killed

| mutant | what it did | killed by |
|---|---|---|
| 5:24 | ignored table | not the ledger |

## reference/other.ts

| at | code | mutants | why |
|---|---|---|---|
| 1:1 | \`x\` | * | any mutant here |
`;

function report(files: Record<string, { source: string; mutants: { line: number; column: number; mutator: string; replacement: string; status: string }[] }>) {
  return {
    files: Object.fromEntries(
      Object.entries(files).map(([file, { source, mutants }]) => [
        file,
        {
          source,
          mutants: mutants.map((m, i) => ({ id: `${file}-${i}`, mutatorName: m.mutator, replacement: m.replacement, status: m.status, location: { start: { line: m.line, column: m.column }, end: { line: m.line, column: m.column + 1 } } })),
        },
      ]),
    ),
  };
}

describe('the survivor ledger (docs/mutation-survivors.md)', () => {
  it('reads only the at | code | mutants | why tables, under their file heading', () => {
    const rows = parseLedger(LEDGER);
    expect(rows.map((r: { file: string; at: unknown[] }) => [r.file, r.at.length])).toEqual([
      ['reference/auth.ts', 1],
      ['reference/auth.ts', 2],
      ['reference/auth.ts', 1],
      ['reference/other.ts', 1],
    ]);
    expect(rows[1].mutants).toEqual([{ mutator: 'MethodExpression', replacement: 'header' }]);
    expect(rows[2].code).toBe('a || b');
    expect(rows[3].mutants).toBe('*');
  });

  it('reads three or more mutator names in one cell', () => {
    const [row] = parseLedger('## reference/a.ts\n\n| at | code | mutants | why |\n|---|---|---|---|\n| 3:1 | `x` | ConditionalExpression; Regex; StringLiteral → `""` | why |\n');
    expect(row.mutants).toEqual([{ mutator: 'ConditionalExpression' }, { mutator: 'Regex' }, { mutator: 'StringLiteral', replacement: '""' }]);
  });

  it('keeps an escaped pipe inside a cell', () => {
    expect(tableCells('| a \\|\\| b | c |')).toEqual(['a || b', 'c']);
  });

  it('names the line of a malformed row instead of dropping it', () => {
    expect(() => parseLedger('## reference/a.ts\n\n| at | code | mutants | why |\n|---|---|---|---|\n| 3 | `x` | Regex | why |\n')).toThrow(/docs line 5: "3" is not a line:column/);
    expect(() => parseLedger('## reference/a.ts\n\n| at | code | mutants | why |\n|---|---|---|---|\n| 3:1 | `x` | Regex |  |\n')).toThrow(/docs line 5: a ledger row says why/);
    expect(() => parseLedger('## reference/a.ts\n\n| at | code | mutants | why |\n|---|---|---|---|\n| 3:1 | `x` | regex | why |\n')).toThrow(/not a Stryker mutator name/);
  });

  it('accounts a survivor only by its file, location and mutator (and replacement where the row names one)', () => {
    const rows = parseLedger(LEDGER);
    const account = accountSurvivors(
      report({
        'reference/auth.ts': {
          source: 'x\n'.repeat(50),
          mutants: [
            { line: 23, column: 7, mutator: 'Regex', replacement: '/x/', status: 'Survived' },
            { line: 12, column: 13, mutator: 'MethodExpression', replacement: 'header', status: 'Survived' },
            { line: 40, column: 2, mutator: 'MethodExpression', replacement: 'other', status: 'Survived' },
            { line: 23, column: 7, mutator: 'StringLiteral', replacement: '""', status: 'Survived' },
            { line: 5, column: 24, mutator: 'Regex', replacement: '/a/', status: 'Killed' },
            { line: 6, column: 1, mutator: 'Regex', replacement: '/a/', status: 'NoCoverage' },
          ],
        },
      }),
      rows,
    );
    expect(account.accounted.map((s: { line: number }) => s.line)).toEqual([23, 12]);
    expect(account.unaccounted.map((s: { line: number; mutator: string }) => `${s.line} ${s.mutator}`)).toEqual(['40 MethodExpression', '23 StringLiteral']);
    // 1 killed of 5 covered; without the 2 listed equivalents, 1 of 3
    expect(account.scoreOfCovered).toBeCloseTo(20);
    expect(account.scoreWithoutEquivalents).toBeCloseTo(100 / 3);
    // the escaped-pipe row matched nothing in a file the run mutated: stale; reference/other.ts was not mutated
    expect(account.stale.map((r: { at: { line: number }[] }) => r.at[0]!.line)).toEqual([36]);
  });

  it('counts a survivor the long-checks pass killed as detected, only when that pass mutated the same source', () => {
    const ttl = 'export const COMPLETED_TTL_MS = 24 * 60 * 60 * 1000;\n';
    const survivor = { line: 1, column: 33, mutator: 'ArithmeticOperator', replacement: '24 * 60 / 60 * 1000', status: 'Survived' };
    const main = report({ 'reference/idempotency-ttl.ts': { source: ttl, mutants: [survivor, { ...survivor, column: 30, status: 'Killed' }] } });
    const killedThere = report({ 'reference/idempotency-ttl.ts': { source: ttl, mutants: [{ ...survivor, status: 'Killed' }] } });
    const account = accountSurvivors(main, [], killedThere);
    expect(account.killedByLongChecks).toEqual([expect.objectContaining({ file: 'reference/idempotency-ttl.ts', line: 1, column: 33 })]);
    expect(account.unaccounted).toEqual([]);
    expect(account.scoreOfCovered).toBeCloseTo(50);
    expect(account.scoreWithoutEquivalents).toBeCloseTo(100);
    expect(formatAccount(account, 'docs/mutation-survivors.md')).toContain('1 killed by the long-checks pass, 0 not accounted for');
    // a pass where it survived too, or a pass over another version of the file, accounts for nothing
    expect(accountSurvivors(main, [], report({ 'reference/idempotency-ttl.ts': { source: ttl, mutants: [survivor] } })).unaccounted).toHaveLength(1);
    expect(accountSurvivors(main, [], report({ 'reference/idempotency-ttl.ts': { source: `// moved\n${ttl}`, mutants: [{ ...survivor, status: 'Killed' }] } })).unaccounted).toHaveLength(1);
    expect(accountSurvivors(main, []).unaccounted).toHaveLength(1);
  });

  it('points at a row whose code fits a survivor that moved to another line', () => {
    const rows = parseLedger(LEDGER);
    const source = `${'\n'.repeat(29)}  const m = header.trim();\n`;
    const account = accountSurvivors(report({ 'reference/auth.ts': { source, mutants: [{ line: 30, column: 13, mutator: 'MethodExpression', replacement: 'header', status: 'Survived' }] } }), rows);
    expect(account.unaccounted).toEqual([expect.objectContaining({ line: 30, movedRow: 10 })]);
    expect(formatAccount(account, 'docs/mutation-survivors.md')).toContain('reference/auth.ts:30:13 MethodExpression → header   (the row at docs line 10 fits: its location moved?)');
  });
});
