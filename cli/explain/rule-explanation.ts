// Everything the project holds about one rule: its text, the tests that judge it, the schemas it checks, the
// reference code that implements it and the faults that break it. Registries are asked which rules they
// serve; the source is read only to say where each one stands.
import { requirement, type Requirement, type RuleId } from '../../requirements/index.ts';
import { FAULTS } from '../../reference/index.ts';
import { resolveResponseSchema, ROUTES } from '../../schemas/route-map.ts';
import { PASSIVE_CHECKS } from '../../harness/checks/passive-checks.ts';
import { EVERY_EXCHANGE_CHECKS, ruleOfResponseSchema, SCHEMA_CHECKED_RULES } from '../../harness/checks/schema-checks.ts';
import { SCENARIOS } from '../../load/scenarios/index.ts';
import { activeTests } from './active-tests.ts';
import { linesContaining, sourceFiles, type SourceFile, type SourceLine } from './source-files.ts';

export interface SchemaUse {
  schema: string;
  /** Which responses or which test it applies to. */
  where: string;
}

export interface RuleExplanation {
  rule: Requirement;
  /** conformance() tests of suites/ that name the rule. */
  activeTests: (SourceLine & { repeatedOver?: string })[];
  /** Checks run over every exchange of every test. */
  passiveChecks: SourceLine[];
  /** Load scenarios that produce evidence for the rule. */
  loadScenarios: SourceLine[];
  schemas: SchemaUse[];
  /** Lines of reference/ that switch a fault breaking the rule, or that name the rule. */
  referenceCode: SourceLine[];
  faults: { name: string; description: string }[];
}

// The generic error mapping of the route map, by a representative status of each branch.
const GENERIC_ERRORS = [
  { status: 400, where: 'every 4xx/5xx error other than 422, 429 and 503' },
  { status: 422, where: 'every 422' },
  { status: 429, where: 'every 429' },
  { status: 503, where: 'every 503' },
];

export function explainRule(id: RuleId): RuleExplanation {
  const tests = activeTests().filter((t) => t.rules.includes(id));
  const faults = Object.entries(FAULTS).filter(([, f]) => (f.rules as readonly string[]).includes(id));
  return {
    rule: requirement(id),
    activeTests: tests.map(({ file, line, text, repeatedOver }) => ({ file, line, text, ...(repeatedOver ? { repeatedOver } : {}) })),
    passiveChecks: passiveChecks(id),
    loadScenarios: loadScenarios(id),
    schemas: [...routeMapSchemas(id), ...assertedSchemas(tests)],
    referenceCode: referenceCode(id, faults.map(([name]) => name)),
    faults: faults.map(([name, f]) => ({ name, description: f.description })),
  };
}

function one(room: string, path: string): SourceFile {
  return sourceFiles(room).find((f) => f.path === path)!;
}

function passiveChecks(id: RuleId): SourceLine[] {
  const lines: SourceLine[] = [];
  if (PASSIVE_CHECKS.some((c) => c.rule === id) || EVERY_EXCHANGE_CHECKS.some((c) => c.rule === id && !SCHEMA_CHECKED_RULES.includes(id))) {
    // why: a passive check may live in a file of its own under harness/checks/
    const files = sourceFiles('harness/checks').filter((f) => f.path !== 'harness/checks/schema-checks.ts');
    for (const at of files.flatMap((f) => linesContaining(f, `rule: '${id}'`))) lines.push({ ...at, text: 'passive check on every exchange' });
  }
  if (SCHEMA_CHECKED_RULES.includes(id)) {
    const at = linesContaining(one('harness', 'harness/checks/schema-checks.ts'), `'${id}'`)[0];
    if (at) lines.push({ ...at, text: 'response schema check (route map) on every exchange' });
  }
  return lines;
}

function loadScenarios(id: RuleId): SourceLine[] {
  const files = sourceFiles('load/scenarios');
  return SCENARIOS.filter((s) => s.rules.includes(id)).flatMap((s) =>
    files.flatMap((f) => linesContaining(f, `name: '${s.name}'`)).map((at) => ({ ...at, text: `${s.name}: ${s.description}` })),
  );
}

function routeMapSchemas(id: RuleId): SchemaUse[] {
  const uses: SchemaUse[] = [];
  for (const route of ROUTES) {
    for (const status of route.statuses) {
      if (ruleOfResponseSchema({ schema: route.schema, unwrap: route.unwrap, source: route.operation }, status) !== id) continue;
      uses.push({ schema: `${route.schema}${route.array ? '[]' : ''}`, where: `${route.method} ${route.template} → ${status} (route map)` });
    }
  }
  for (const { status, where } of GENERIC_ERRORS) {
    const resolution = resolveResponseSchema('GET', '/', status, undefined);
    if (resolution && ruleOfResponseSchema(resolution, status) === id) uses.push({ schema: resolution.schema, where: `${where} (route map)` });
  }
  return uses;
}

function assertedSchemas(tests: ReturnType<typeof activeTests>): SchemaUse[] {
  return tests.flatMap((t) => [...t.body.matchAll(/toMatchSchema\('(\w+)'\)/g)].map((m) => ({ schema: m[1]!, where: `asserted by ${t.file}:${t.line}` })));
}

function referenceCode(id: RuleId, faults: string[]): SourceLine[] {
  const needles = [...faults.map((f) => `has('${f}')`)];
  const namesRule = new RegExp(`\\b${id}\\b`);
  return sourceFiles('reference')
    .filter((f) => f.path !== 'reference/faults.ts')
    .flatMap((file) =>
      file.text.split('\n').flatMap((text, i) =>
        needles.some((n) => text.includes(n)) || namesRule.test(text) ? [{ file: file.path, line: i + 1, text: text.trim() }] : [],
      ),
    );
}
