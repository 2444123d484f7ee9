// The shape conformance.json must have before anything is recomputed from it: every field the verifier reads, of
// the type it reads, and no more rules or tests than the catalog and a run can hold. A report outside it is INVALID
// with the field named, never an exception halfway through a check, and never a rebuild of a million tests.
import { Ajv, type ErrorObject } from 'ajv';
import { REQUIREMENTS } from '../requirements/index.ts';

/** A run lists each of its ~300 tests under the rules it names; these caps leave a wide margin. */
export const REPORT_LIMITS = { rules: REQUIREMENTS.length, testsPerRule: 1_000, tests: 20_000, evidence: 200, listItems: 1_000 } as const;

const str = { type: 'string' } as const;
const strings = { type: 'array', maxItems: REPORT_LIMITS.listItems, items: str } as const;
const verdicts = ['pass', 'fail', 'warn', 'not-verified', 'not-applicable'];
const counts = { type: 'object', required: verdicts, properties: Object.fromEntries(verdicts.map((v) => [v, { type: 'integer' }])) };

const SCHEMA = {
  type: 'object',
  required: ['format', 'formatVersion', 'suite', 'spec', 'target', 'startedAt', 'finishedAt', 'durationMs', 'summary', 'requirements', 'leaks', 'errors'],
  properties: {
    format: str,
    formatVersion: { type: 'integer' },
    suite: {
      type: 'object',
      required: ['name', 'version'],
      properties: { name: str, version: str, digest: str, release: { anyOf: [{ type: 'null' }, { type: 'object', required: ['version', 'digest'], properties: { version: str, digest: str } }] } },
    },
    spec: { type: 'object', required: ['version'], properties: { version: str, catalogDigest: str } },
    target: { type: 'object', required: ['baseUrl', 'embeddedReference', 'faults'], properties: { baseUrl: str, regionalBaseUrl: str, embeddedReference: { type: 'boolean' }, identifiesAsReference: { type: 'string', maxLength: 64 }, faults: strings, declared: { type: 'object' } } },
    startedAt: str,
    finishedAt: str,
    durationMs: { type: 'number' },
    summary: {
      type: 'object',
      required: ['verdict', 'counts', 'tests', 'unverifiedMust', 'exceptedMust'],
      properties: {
        verdict: { enum: ['conformant', 'incomplete', 'non-conformant', 'error'] },
        error: str,
        interrupted: { type: 'boolean' },
        counts: { type: 'object', required: ['MUST', 'SHOULD', 'INFO'], properties: { MUST: counts, SHOULD: counts, INFO: counts } },
        tests: { type: 'object' },
        unverifiedMust: { type: 'array', maxItems: REPORT_LIMITS.rules, items: { type: 'object', required: ['id', 'reason'], properties: { id: str, reason: str } } },
        exceptedMust: { type: 'array', maxItems: REPORT_LIMITS.rules, items: str },
      },
    },
    certification: {
      type: 'object',
      required: ['certificationGrade', 'reasons'],
      properties: { certificationGrade: { type: 'boolean' }, reasons: { type: 'array', maxItems: 100, items: { type: 'object', required: ['code', 'text'], properties: { code: str, text: str } } }, declared: strings },
    },
    requirements: {
      type: 'array',
      maxItems: REPORT_LIMITS.rules,
      items: {
        type: 'object',
        required: ['id', 'level', 'verdict', 'tests'],
        properties: {
          id: str,
          level: { enum: ['MUST', 'SHOULD', 'INFO'] },
          verdict: str,
          reason: str,
          tests: {
            type: 'array',
            maxItems: REPORT_LIMITS.testsPerRule,
            items: {
              type: 'object',
              required: ['name', 'status', 'durationMs'],
              properties: {
                name: str,
                file: str,
                status: str,
                level: str,
                durationMs: { type: 'number' },
                message: str,
                evidence: { type: 'array', maxItems: REPORT_LIMITS.evidence, items: str },
                transport: { type: 'object', required: ['tries', 'faults'], properties: { tries: { type: 'integer' }, faults: strings } },
                decisive: { type: 'boolean' },
              },
            },
          },
        },
      },
    },
    leaks: strings,
    errors: strings,
    expectations: { type: 'object', properties: { file: str } },
  },
};

const validate = new Ajv({ allErrors: false, strict: false }).compile(SCHEMA);

/** What is wrong with the report's shape (empty: nothing); the first problem only, named by its path. */
export function reportShapeProblems(report: unknown): string[] {
  if (!validate(report)) return (validate.errors ?? []).slice(0, 1).map(describe);
  const tests = (report as { requirements: { tests: unknown[] }[] }).requirements.reduce((n, r) => n + r.tests.length, 0);
  return tests > REPORT_LIMITS.tests ? [`it lists ${tests} tests, more than the ${REPORT_LIMITS.tests} a run can hold`] : [];
}

function describe(e: ErrorObject): string {
  const where = e.instancePath === '' ? 'the report' : e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  return `${where} ${e.message ?? 'is malformed'}`;
}
