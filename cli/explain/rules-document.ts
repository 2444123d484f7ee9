// docs/RULES.md: every rule of the catalog with how the suite verifies it, generated from the catalog and the
// suites so that the document shipped with the suite is the one it judges by (`conformance rules` prints it).
import { declaredOff } from '../../report/declared-off.ts';
import { AREAS, REQUIREMENTS, SPEC_VERSION, type Requirement } from '../../requirements/index.ts';
import { activeTests, type ActiveTest } from './active-tests.ts';
import { explainRule } from './rule-explanation.ts';
import { sourceFiles } from './source-files.ts';
import { inventoryCoverage } from './inventory-coverage.ts';
import { coverageLine } from './inventory-document.ts';

/** Every declaration switched off: the rules it takes out (report/declared-off.ts) are the ones a target may declare off. */
export const ALL_OFF = { idempotency: false, rateLimiting: false, regionalEndpoint: false } as const;

/** How each feature is declared off, for the table of declarations (a harness test holds it against declaredOff). */
export const DECLARATIONS = [
  { rules: 'IDEM-*', how: '`features.idempotency: false` (`CONFORMANCE_FEATURE_IDEMPOTENCY=false`)' },
  { rules: 'RL-*', how: '`features.rateLimiting: false` (`CONFORMANCE_FEATURE_RATE_LIMITING=false`)' },
  { rules: 'VER-02', how: '`features.regionalEndpoint: false` (`--no-regional-endpoint`, `CONFORMANCE_FEATURE_REGIONAL_ENDPOINT=false`)' },
];

/** What a test's `needs` asks of the configuration; without it the test is not verified. */
const NEEDS: Record<string, string> = {
  secondaryKey: 'a secondary key (`CONFORMANCE_SECONDARY_API_KEY`)',
  restrictedKey: 'a restricted key (`CONFORMANCE_RESTRICTED_API_KEY`)',
  regionalBaseUrl: 'a regional base URL (`CONFORMANCE_REGIONAL_TARGET`)',
  drain: 'a drained rate-limit bucket (not with `--no-drain`)',
  longChecks: '`--long-checks`',
};

export function rulesDocument(): string {
  const tests = activeTests();
  const inventory = inventoryCoverage(tests);
  const uncovered = inventory.rows.filter((r) => r.kind !== 'RULES.md rule' && r.coverage !== 'covered');
  const needsOf = testNeeds(tests);
  const count = (level: string) => REQUIREMENTS.filter((r) => r.level === level).length;
  const lines = [
    '# Rules',
    '',
    '<!-- Generated from requirements/catalog.ts and suites/ by `npm run docs:rules`; do not edit by hand. -->',
    '',
    `The rules the suite judges a Notification Service implementation by, interface ${SPEC_VERSION}: ${REQUIREMENTS.length} rules,`,
    `${count('MUST')} MUST, ${count('SHOULD')} SHOULD, ${count('INFO')} INFO. The IDs are stable: every test, report and bundle speaks in them.`,
    '`npx conformance rules` prints this document; `npx conformance explain RULE-ID` shows one rule with the file and line of',
    'each of its tests and checks.',
    '',
    '- **MUST**: a failure makes the target non-conformant.',
    '- **SHOULD**: a failure is a warning (`warn`), never a pass, and never changes the verdict.',
    '- **INFO**: observed and reported, never judged.',
    '',
    'A rule is `pass` only when a test exercised it and it held; `not-verified` when the run could not exercise it (a',
    'missing key, `--no-drain`, `--rules`…); `not-applicable` when the target declares the feature off.',
    '',
    '## What a target may declare off',
    '',
    '| rules | declared off by | then |',
    '|---|---|---|',
    ...DECLARATIONS.map((d) => `| ${d.rules} | ${d.how} | not-applicable, and the report says it was declared |`),
    '| RL-05 | `limits.triggerRps: <n>` (`CONFORMANCE_TRIGGER_RPS`) | judged at the declared trigger rate instead of 600/s |',
    '',
    '## Coverage of the spec',
    '',
    `The behaviour inventory ([INVENTORY.md](INVENTORY.md)) lists every statement of the spec with the tests that fail when it breaks: ${coverageLine(inventory)}.`,
    'The statements no test provokes:',
    '',
    '| statement | coverage | why |',
    '|---|---|---|',
    ...uncovered.map((r) => `| ${r.key.replace(/\|/g, '\\|')} | ${r.coverage} | ${(r.why ?? '').replace(/\|/g, '\\|')} |`),
    '',
    ...Object.entries(AREAS).flatMap(([area, heading]) => [
      `## ${area} — ${heading}`,
      '',
      ...REQUIREMENTS.filter((r) => r.area === area).flatMap((r) => ruleSection(r, tests.filter((t) => t.rules.includes(r.id)), needsOf)),
    ]),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}

function ruleSection(rule: Requirement, tests: ActiveTest[], needsOf: Map<ActiveTest, string[]>): string[] {
  const e = explainRule(rule.id);
  const how = [
    tests.length > 0 ? `${tests.length} test${tests.length === 1 ? '' : 's'}${tests.some((t) => t.text.includes('${')) ? ' (a title with … runs once per case)' : ''}` : undefined,
    e.passiveChecks.length > 0 ? 'a check on every exchange of the run' : undefined,
    e.loadScenarios.length > 0 ? `under load (\`conformance load\`: ${e.loadScenarios.map((s) => s.text.split(':')[0]).join(', ')})` : undefined,
  ].filter((h) => h !== undefined);
  const needed = new Map<string, number>();
  for (const t of tests) for (const need of needsOf.get(t) ?? []) needed.set(need, (needed.get(need) ?? 0) + 1);
  return [
    `### ${rule.id} · ${rule.level}`,
    '',
    rule.text,
    '',
    `- Verified by: ${how.length > 0 ? how.join('; ') : 'nothing yet (always not-verified)'}.`,
    ...[...needed].map(([need, n]) => `- Needs ${NEEDS[need] ?? need}: ${n === tests.length ? 'every test' : `${n} of ${tests.length} tests`}; not verified without it.`),
    ...(rule.observableOnlyWhenItHappens ? ['- Observable only when the target answers that way; a run that never sees it lists the rule under `summary.exceptedMust`, never as passed.'] : []),
    ...(rule.verifiedBy === 'load' ? ['- `conformance run` leaves it not-verified until `conformance load` merges its verdict.'] : []),
    ...(declaredOff(rule, ALL_OFF) ? [`- Not applicable when ${declaredOff(rule, ALL_OFF)}.`] : []),
    ...(tests.length > 0 ? ['', '<details><summary>Tests</summary>', '', ...tests.map((t) => `- ${title(t.text)} (\`${t.file}\`)`), '', '</details>'] : []),
    '',
  ];
}

/** The `needs` of each test: given inline (`{ needs: [...] }`) or through its file's shared `needs` constant. */
function testNeeds(tests: ActiveTest[]): Map<ActiveTest, string[]> {
  const shared = new Map(sourceFiles('suites').map((f) => [f.path, listed(/const needs = \{ needs: \[([^\]]*)\]/.exec(f.text)?.[1])]));
  return new Map(tests.map((t) => {
    const inline = /\bneeds: \[([^\]]*)\]/.exec(t.body)?.[1];
    return [t, inline !== undefined ? listed(inline) : /,\s*needs\);/.test(t.body) ? (shared.get(t.file) ?? []) : []];
  }));
}

/** A test title as a reader sees it: a templated part (one test per case) shows as …, markup stays text. */
function title(text: string): string {
  return text.replace(/\$\{[^}]*\}/g, '…').replace(/</g, '&lt;');
}

function listed(items: string | undefined): string[] {
  return [...(items ?? '').matchAll(/'(\w+)'/g)].map((m) => m[1]!);
}
