// The behaviour inventory held against the spec, RULES.md and the suites: which statements each test covers, which
// are only seen in passing or unobservable, and what has gone stale (a statement the inventory lacks, a key the spec
// no longer has, a test fragment no test title matches).
import { inventoryStatements, coverageOf, type Coverage, type StatementMapping } from '../../requirements/inventory.ts';
import { LOAD_VERIFIED_RULES, RULE_IDS, type RuleId } from '../../requirements/index.ts';
import { EVERY_EXCHANGE_CHECKS } from '../../harness/checks/schema-checks.ts';
import { CLIENT_CHECKED_RULES } from '../../harness/checks/client-check-rules.ts';
import { activeTests, type ActiveTest } from './active-tests.ts';
import { rulesOfRulesFile, specStatements, type SpecStatement } from './spec-statements.ts';

export interface InventoryRow {
  key: string;
  kind: SpecStatement['kind'] | 'RULES.md rule';
  text: string;
  coverage: Coverage;
  rules: readonly string[];
  /** The tests a fragment names, each `file: title`. */
  tests: string[];
  why?: string;
}

export interface InventoryCoverage {
  rows: InventoryRow[];
  /** Spec statements the inventory does not list. */
  unmapped: SpecStatement[];
  /** Inventory keys the spec no longer states. */
  unknownKeys: string[];
  /** `key: fragment` pairs whose fragment no test title contains. */
  staleTests: string[];
  /** RULES.md rules the catalog lacks, and catalog rules RULES.md lacks. */
  ruleDrift: string[];
}

export function inventoryCoverage(tests: ActiveTest[] = activeTests(), spec: SpecStatement[] = specStatements()): InventoryCoverage {
  const listed = new Map(inventoryStatements().map((s) => [s.key, s.mapping]));
  const staleTests: string[] = [];
  const resolve = (key: string, m: StatementMapping) =>
    (m.tests ?? []).flatMap((fragment) => {
      const found = tests.filter((t) => t.text.includes(fragment));
      if (found.length === 0) staleTests.push(`${key}: "${fragment}"`);
      return found.map((t) => `${t.file}: ${t.text}`);
    });
  const rows: InventoryRow[] = spec.flatMap((s) => {
    const m = listed.get(s.key);
    if (!m) return [];
    return [{ key: s.key, kind: s.kind, text: s.text, coverage: coverageOf(m), rules: m.rules, tests: [...new Set(resolve(s.key, m))], ...((m.seen ?? m.unobservable ?? m.gap) ? { why: (m.seen ?? m.unobservable ?? m.gap)! } : {}) }];
  });
  const passive = new Set<string>([...EVERY_EXCHANGE_CHECKS.map((c) => c.rule), ...CLIENT_CHECKED_RULES]);
  for (const id of RULE_IDS) rows.push(ruleRow(id, tests, passive));
  const fromFile = rulesOfRulesFile();
  return {
    rows,
    unmapped: spec.filter((s) => !listed.has(s.key)),
    unknownKeys: [...listed.keys()].filter((key) => !spec.some((s) => s.key === key)),
    staleTests,
    ruleDrift: [...fromFile.filter((id) => !(RULE_IDS as readonly string[]).includes(id)).map((id) => `${id}: in RULES.md, not in the catalog`), ...RULE_IDS.filter((id) => !fromFile.includes(id)).map((id) => `${id}: in the catalog, not in RULES.md`)],
  };
}

/** A rule of RULES.md: covered by the tests that name it (or the load harness); seen-only with a passive check alone. */
function ruleRow(id: RuleId, tests: ActiveTest[], passive: Set<string>): InventoryRow {
  const own = tests.filter((t) => t.rules.includes(id)).map((t) => `${t.file}: ${t.text}`);
  const load = LOAD_VERIFIED_RULES.includes(id);
  const coverage: Coverage = own.length > 0 || load ? 'covered' : passive.has(id) ? 'seen-only' : 'untested';
  const why = coverage === 'seen-only' ? 'a check on every exchange of the run' : coverage === 'untested' ? 'no test names this rule yet' : load ? 'verified under load (`conformance load`)' : undefined;
  return { key: id, kind: 'RULES.md rule', text: id, coverage, rules: [id], tests: own, ...(why ? { why } : {}) };
}

/** Counts per coverage, for the spec's statements and for the rules apart. */
export function coverageCounts(rows: InventoryRow[]): { statements: Record<Coverage, number>; rules: Record<Coverage, number> } {
  const count = (pick: InventoryRow[]) => ({
    covered: pick.filter((r) => r.coverage === 'covered').length,
    'seen-only': pick.filter((r) => r.coverage === 'seen-only').length,
    unobservable: pick.filter((r) => r.coverage === 'unobservable').length,
    untested: pick.filter((r) => r.coverage === 'untested').length,
  });
  return { statements: count(rows.filter((r) => r.kind !== 'RULES.md rule')), rules: count(rows.filter((r) => r.kind === 'RULES.md rule')) };
}

/** The problems `conformance rules --check-inventory` reports, one line each (none: the inventory is complete). */
export function inventoryProblems(c: InventoryCoverage): string[] {
  return [
    ...c.unmapped.map((s) => `unmapped statement (spec line ${s.line}): ${s.key}`),
    ...c.unknownKeys.map((key) => `inventory key the spec does not state: ${key}`),
    ...c.staleTests.map((ref) => `stale test reference (no test title contains it): ${ref}`),
    ...c.ruleDrift.map((d) => `rule drift: ${d}`),
  ];
}
