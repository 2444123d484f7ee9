// Expected-failure baselines (web-platform-tests style): a vendor records known gaps per rule ID or test name
// without editing tests. `fail`, `[pass, fail]`, or `skip: reason`. Unexpected results, passes included, are reported.
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { isRuleId } from '../../requirements/index.ts';
import { ConfigError } from '../../config/config-error.ts';
import type { ConformanceReport, ExpectationOutcome, UnexpectedResult } from '../../report/conformance-report.ts';

/** The reason of a rule a `--rules` run did not select (report/verdicts.ts). */
const NOT_SELECTED = 'not among --rules';

const OUTCOMES = ['pass', 'fail', 'warn', 'not-verified', 'not-applicable'] as const;
export type ExpectedOutcome = (typeof OUTCOMES)[number];

export interface Expectations {
  file: string;
  /** Rule ID or test name → the outcomes that are not a surprise. */
  expected: Map<string, ExpectedOutcome[]>;
  /** Rule ID or test name → why it is not run at all (reported not-verified, never pass). */
  skips: Record<string, string>;
}

const outcome = { type: 'string', enum: [...OUTCOMES] } as const;
const EXPECTATIONS_SCHEMA = {
  type: 'object',
  additionalProperties: {
    oneOf: [
      outcome,
      { type: 'array', items: outcome, minItems: 1 },
      { type: 'object', additionalProperties: false, required: ['skip'], properties: { skip: { type: 'string', minLength: 1 } } },
    ],
  },
};
// Compiled on first use, not at load: only a run with --expectations validates a baseline.
let validate: ValidateFunction | undefined;

export function loadExpectations(file: string): Expectations {
  let data: unknown;
  try {
    data = parseYaml(readFileSync(file, 'utf8')) ?? {};
  } catch (error) {
    throw new ConfigError('--expectations', `cannot read ${file}: ${(error as Error).message.split('\n')[0]}`);
  }
  validate ??= new Ajv({ strict: true, allErrors: false }).compile(EXPECTATIONS_SCHEMA);
  if (!validate(data)) {
    const at = validate.errors?.[0]?.instancePath.slice(1) ?? '';
    throw new ConfigError('--expectations', `${file}: entry "${at}" must be one of ${OUTCOMES.join(', ')}, a list of them, or {skip: reason}`);
  }
  const expected = new Map<string, ExpectedOutcome[]>();
  const skips: Record<string, string> = {};
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    if (/^[A-Z]+-\d+[a-z]?$/.test(key) && !isRuleId(key)) throw new ConfigError('--expectations', `${file}: unknown rule ID ${key}`);
    if (typeof value === 'string') expected.set(key, [value as ExpectedOutcome]);
    else if (Array.isArray(value)) expected.set(key, value as ExpectedOutcome[]);
    else skips[key] = (value as { skip: string }).skip;
  }
  return { file, expected, skips };
}

/** Compares a finished run with the baseline: rule keys against verdicts, test-name keys against test statuses. */
export function compareWithExpectations(report: ConformanceReport, expectations: Expectations): ExpectationOutcome {
  const actual = new Map<string, string>();
  for (const rule of report.requirements) {
    actual.set(rule.id, rule.verdict);
    for (const test of rule.tests) actual.set(test.name, test.status === 'passed' ? 'pass' : test.status === 'failed' ? 'fail' : test.status);
  }
  const unexpected: UnexpectedResult[] = [];
  const unused: string[] = [];
  let matched = 0;
  for (const [key, allowed] of expectations.expected) {
    const got = actual.get(key);
    if (got === undefined) unused.push(key);
    else if ((allowed as string[]).includes(got)) matched += 1;
    else unexpected.push({ key, expected: allowed, actual: got, kind: got === 'pass' ? 'unexpected-pass' : 'unexpected-result' });
  }
  for (const key of Object.keys(expectations.skips)) if (!actual.has(key)) unused.push(key);
  unexpected.push(...unlistedSurprises(report, expectations));
  return { file: expectations.file, matched, unexpected, unused };
}

/**
 * A baseline lists known gaps; a MUST rule it names nowhere (neither the rule nor one of its tests) must hold as it
 * would without a baseline: failed, or not verified for any reason but the run's own `--rules`, is a surprise —
 * so a real defect, or a key missing from a CI job's secrets, never exits 0.
 */
function unlistedSurprises(report: ConformanceReport, expectations: Expectations): UnexpectedResult[] {
  const named = (key: string) => expectations.expected.has(key) || key in expectations.skips;
  const unverified = new Set(report.summary.unverifiedMust.filter((r) => r.reason !== NOT_SELECTED).map((r) => r.id));
  return report.requirements
    .filter((rule) => !named(rule.id) && !rule.tests.some((t) => named(t.name)))
    .filter((rule) => (rule.level === 'MUST' && rule.verdict === 'fail') || unverified.has(rule.id))
    .map((rule) => ({ key: rule.id, expected: ['pass', 'not-applicable'], actual: rule.verdict, kind: 'unexpected-result' }));
}
