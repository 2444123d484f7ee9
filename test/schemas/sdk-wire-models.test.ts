// Both directions between the two levels: every answer the official SDK's wire models allow (and the spec and
// RULES.md do not rule out) is accepted by the MUST schemas. Samples are generated from the SDK's own zod models —
// minimal, maximal, with nulls where nullable, and seeded random ones — and validated with the project's registry.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorDto$inboundSchema } from '@novu/api/models/errors/errordto.js';
import { PayloadValidationExceptionDto$inboundSchema } from '@novu/api/models/errors/payloadvalidationexceptiondto.js';
import { ValidationErrorDto$inboundSchema } from '@novu/api/models/errors/validationerrordto.js';
import { SUCCESS_MODELS } from '../../harness/client/sdk-models.ts';
import { OPERATIONS } from '../../harness/operations.ts';
import { registry, type SchemaName } from '../../schemas/registry.ts';
import { validateResolved } from '../../schemas/response-check.ts';
import { resolveResponseSchema } from '../../schemas/route-map.ts';
import { formatViolation } from '../../schemas/violations.ts';
import { fixedSample, isoTimestamp, randomSamples, type Conventions } from '../../fuzz/generate/zod-samples.ts';

const SEED = 20_260_101;
const RANDOM_SAMPLES = 150;

const slug = fc.stringMatching(/^[a-z0-9]{1,8}(?:[-_.][a-z0-9]{1,8}){0,2}$/);
const colonPair = fc.tuple(slug, slug).map(([a, b]) => `${a}:${b}`);
const twelveHour = fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 59 }), fc.constantFrom('AM', 'PM')).map(([h, m, p]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')} ${p}`);
const nonEmpty = fc.stringMatching(/^[a-f0-9]{1,24}$/);
const last = (path: readonly string[]) => path.at(-1) ?? '';

/** Where the spec or RULES.md says more than the SDK's model, each with the sentence that says it. */
const CONVENTIONS: Conventions = {
  string(path) {
    const field = last(path);
    if (/At$/.test(field) || field === 'timestamp') return isoTimestamp; // RULES: wire conventions (ISO-8601 timestamps)
    if (field === 'workflowId' || field === 'stepId' || path.join('.') === 'agent.identifier') return slug; // RULES: wire conventions (slug identifiers)
    if (field === '_id' || field === 'slug') return nonEmpty; // WF-10: `_id`, `slug` are non-empty strings
    if (path.join('.') === 'data.identifier' || path.join('.') === 'data.contextKeys') return colonPair; // TS-07
    if (path.includes('hours') && (field === 'start' || field === 'end')) return twelveHour; // spec: Resources › Schedule
    return undefined;
  },
  required: () => false,
};

/** The payload validation error: spec Endpoints › Trigger event states `type`, `errors[].schemaPath` and `schema`. */
const PAYLOAD_ERROR_CONVENTIONS: Conventions = {
  string: (path) => (path.join('.') === 'type' ? fc.constant('PAYLOAD_VALIDATION_ERROR') : CONVENTIONS.string(path)),
  required: (path) => ['schema', 'errors.schemaPath'].includes(path.join('.')),
};

function samples(model: unknown, conventions: Conventions): { label: string; value: unknown }[] {
  return [
    ...(['minimal', 'maximal', 'nulls'] as const).map((mode) => ({ label: mode, value: fixedSample(model, mode, conventions, SEED) })),
    ...randomSamples(model, RANDOM_SAMPLES, conventions, SEED).map((value, i) => ({ label: `random #${i} (seed ${SEED})`, value })),
  ];
}

function rejections(validate: (value: unknown) => { valid: boolean; violations: { path: string }[] }, label: string, all: { label: string; value: unknown }[], schema: string): string[] {
  return all.flatMap(({ label: which, value }) => {
    const r = validate(value);
    return r.valid ? [] : [`${label} ${which}: ${r.violations.slice(0, 3).map((v) => formatViolation(schema, v as never)).join('; ')}\n  ${JSON.stringify(value).slice(0, 400)}`];
  });
}

describe('answers the official SDK reads are accepted by the MUST schemas', () => {
  for (const op of OPERATIONS) {
    const { status, model } = SUCCESS_MODELS[op.template]!;
    const resolution = resolveResponseSchema(op.method, op.samplePath, status, {})!;
    it(`${op.method} ${op.template}: ${model.name} → ${resolution.schema}`, () => {
      const validate = (value: unknown) => validateResolved({ ...resolution, unwrap: false }, model.array ? [value] : value);
      expect(rejections(validate, model.name, samples(model.model, CONVENTIONS), resolution.schema)).toEqual([]);
    });
  }

  const errors: [string, unknown, SchemaName, Conventions][] = [
    ['ErrorDto', ErrorDto$inboundSchema, 'ErrorDto', CONVENTIONS],
    ['ValidationErrorDto', ValidationErrorDto$inboundSchema, 'ValidationErrorDto', CONVENTIONS],
    ['PayloadValidationExceptionDto', PayloadValidationExceptionDto$inboundSchema, 'PayloadValidationErrorDto', PAYLOAD_ERROR_CONVENTIONS],
  ];
  for (const [name, model, schema, conventions] of errors) {
    it(`error answers: ${name} → ${schema}`, () => {
      expect(rejections((v) => registry.validate(schema, v), name, samples(model, conventions), schema)).toEqual([]);
    });
  }
});
