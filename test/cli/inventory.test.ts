// The behaviour inventory stays complete: every statement of the spec and every rule of RULES.md in it, every test
// it names still in the suites, and docs/INVENTORY.md what it generates.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { activeTests } from '../../cli/explain/active-tests.ts';
import { inventoryCoverage, inventoryProblems } from '../../cli/explain/inventory-coverage.ts';
import { inventoryDocument } from '../../cli/explain/inventory-document.ts';
import { rulesOfRulesFile, specStatements, SPEC_FILE } from '../../cli/explain/spec-statements.ts';
import { REPO_ROOT } from '../../report/suite-info.ts';
import { RULE_IDS } from '../../requirements/index.ts';
import { INVENTORY } from '../../requirements/inventory.ts';
import { runCli } from '../hostile/run-cli.ts';

const spec = readFileSync(join(REPO_ROOT, SPEC_FILE), 'utf8');

describe('the behaviour inventory', () => {
  test('lists every statement of the spec once, names only tests the suites have, and every rule of RULES.md', () => {
    const problems = inventoryProblems(inventoryCoverage());
    expect(problems, 'run `npx conformance rules --check-inventory` and map or fix each line in requirements/inventory.ts').toEqual([]);
  });

  test('reads every kind of statement off the spec: table rows, body bullets, numbered rules, limits, status lines', () => {
    const keys = specStatements(spec).map((s) => s.key);
    expect(new Set(keys).size, 'each statement once').toBe(keys.length);
    expect(keys.filter((k) => k.startsWith('Workflow create request (CreateWorkflowDto) › '))).toHaveLength(13);
    expect(keys.filter((k) => k.startsWith('Status codes listed for workflow creation › status '))).toHaveLength(13);
    expect(keys.filter((k) => k.startsWith('Limits › ') && !k.includes(' rule '))).toHaveLength(6);
    for (const key of ['Trigger event › rule 3', 'Authentication › rule 4', 'Limits › rule 2', 'Delete topic subscriptions › subscriberIds', 'List all environments › status 200', 'Trigger event › context'])
      expect(keys).toContain(key);
    expect(rulesOfRulesFile()).toEqual([...RULE_IDS]);
  });

  test('a new table row, numbered rule or status line of the spec shows as unmapped; a renamed test as stale', () => {
    const grown = spec
      .replace('| severity | enum | no | Severity level |', '| severity | enum | no | Severity level |\n| locale | string | no | |')
      .replace('5. Issuing, rotating and scoping of keys: not shown.', '5. Issuing, rotating and scoping of keys: not shown.\n6. Keys expire.')
      .replace('| 503 |', '| 507 | Insufficient Storage | common error body |\n| 503 |');
    const tests = activeTests().filter((t) => !t.text.includes('activityFeedLink is a URL'));
    const c = inventoryCoverage(tests, specStatements(grown));
    expect(c.unmapped.map((s) => s.key)).toEqual([
      'Workflow create request (CreateWorkflowDto) › locale',
      'Authentication › rule 6',
      'Status codes listed for workflow creation › status 507',
    ]);
    expect(c.staleTests).toEqual(['Trigger response › activityFeedLink: "activityFeedLink is a URL naming the run"']);
  });

  test('says for each statement no test covers why: what sees it in passing, or why nothing can', () => {
    for (const [heading, rows] of Object.entries(INVENTORY)) {
      for (const [field, m] of Object.entries(rows)) {
        const reasons = [m.tests?.length ? 'tests' : undefined, m.seen, m.unobservable, m.gap].filter(Boolean);
        expect(reasons, `${heading} › ${field}: exactly one of tests, seen, unobservable, gap`).toHaveLength(1);
      }
    }
  });

  test('docs/INVENTORY.md is what the inventory generates now (regenerate: npm run docs:inventory)', () => {
    expect(readFileSync(join(REPO_ROOT, 'docs/INVENTORY.md'), 'utf8') === inventoryDocument(), 'docs/INVENTORY.md is out of date: run `npm run docs:inventory` and commit it').toBe(true);
  });

  test('`conformance rules --check-inventory` says complete and exits 0', async () => {
    const res = await runCli(['rules', '--check-inventory']);
    expect(res.stdout).toMatch(/^complete: \d+ statements of the spec: \d+ covered/m);
    expect(res.code).toBe(0);
  });
});
