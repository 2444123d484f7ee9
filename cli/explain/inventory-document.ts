// docs/INVENTORY.md: every statement of the spec with the rules and tests that fail when it breaks (or why none can),
// generated from requirements/inventory.ts, the spec's text and the suites (`conformance rules --inventory`).
import type { Coverage } from '../../requirements/inventory.ts';
import { coverageCounts, inventoryCoverage, type InventoryCoverage, type InventoryRow } from './inventory-coverage.ts';

const LABEL: Record<Coverage, string> = { covered: 'covered', 'seen-only': 'seen only', unobservable: 'unobservable', untested: 'untested' };

/** One line of counts, as `conformance rules` and docs/RULES.md show it. */
export function coverageLine(c: InventoryCoverage = inventoryCoverage()): string {
  const { statements: s, rules: r } = coverageCounts(c.rows);
  const total = s.covered + s['seen-only'] + s.unobservable + s.untested;
  return `${total} statements of the spec: ${s.covered} covered by a test, ${s['seen-only']} seen only (a check reads them in passing), ${s.unobservable} unobservable by a black-box test, ${s.untested} untested; ${r.covered} of ${r.covered + r['seen-only'] + r.untested} rules covered by a test, ${r['seen-only']} seen only, ${r.untested} without a test`;
}

export function inventoryDocument(c: InventoryCoverage = inventoryCoverage()): string {
  const statements = c.rows.filter((r) => r.kind !== 'RULES.md rule');
  const lines = [
    '# Behaviour inventory',
    '',
    '<!-- Generated from requirements/inventory.ts, requirements/spec/ and suites/ by `npm run docs:inventory`; do not edit by hand. -->',
    '',
    'Every statement of the spec — each field row of its tables, each body field, each numbered rule, each limit and each',
    'status line — with the rules and the tests that fail when an implementation breaks it. **covered**: a test sends or',
    'asserts it; **seen only**: no test provokes it, a check on every answer reads it in passing; **unobservable**: no',
    'black-box test can see it (the reason is given); **untested**: a test could see it, none does yet (a gap).',
    'The rules of [RULES.md](RULES.md) are listed with their tests there.',
    '',
    `${coverageLine(c)}.`,
    '',
    '`npx conformance rules --check-inventory` lists statements the inventory lacks and test references no test title',
    'matches (exit 1 when there is one); a harness test runs the same check.',
    '',
    '| statement | coverage | rules | tests or reason |',
    '|---|---|---|---|',
    ...statements.map(row),
    '',
  ];
  return lines.join('\n');
}

function row(r: InventoryRow): string {
  const tests = r.tests.length > 0 ? r.tests.map((t) => cell(t.replace(/\$\{[^}]*\}/g, '…'))).join('<br>') : cell(r.why ?? '');
  return `| ${cell(r.key)} | ${LABEL[r.coverage]} | ${r.rules.join(', ') || '—'} | ${tests} |`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/</g, '&lt;');
}
