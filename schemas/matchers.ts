// Vitest matchers: expect(body).toMatchSchema('TriggerEventResponseDto'), expect({method, path, status, body}).toMatchResponseSchema().
// Importing this module registers them (expect.extend) and brings the type augmentation.
import { expect } from 'vitest';
import { registry, isSchemaName, type SchemaName, type ValidationResult } from './registry.ts';
import { checkResponse, type CapturedResponse } from './response-check.ts';
import { formatViolation } from './violations.ts';

interface SchemaMatchers<R = unknown> {
  /** The value is valid against the named schema (no unwrapping; pass the DTO). */
  toMatchSchema(name: SchemaName): R;
  /** `{method, path, status, body}`: the body is valid against the schema the route map names for it. */
  toMatchResponseSchema(): R;
}

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  interface Assertion<T = any> extends SchemaMatchers<T> {}
  interface AsymmetricMatchersContaining extends SchemaMatchers {}
}

interface MatcherOutcome {
  pass: boolean;
  message: () => string;
}

/** Failure text: one line per violation, `Schema: /json/pointer message (got value)`. */
export function describeFailure(label: string, result: ValidationResult): string {
  return result.violations.map((v) => formatViolation(label, v)).join('\n');
}

export function toMatchSchema(this: { isNot?: boolean } | void, received: unknown, name: SchemaName): MatcherOutcome {
  if (!isSchemaName(name)) return { pass: false, message: () => `toMatchSchema: unknown schema ${JSON.stringify(name)}` };
  const result = registry.validate(name, received);
  return {
    pass: result.valid,
    message: () => (result.valid ? `expected the value not to match ${name}` : describeFailure(name, result)),
  };
}

export function toMatchResponseSchema(this: { isNot?: boolean } | void, received: CapturedResponse): MatcherOutcome {
  const where = `${received?.method} ${received?.path} ${received?.status}`;
  if (!received || typeof received !== 'object' || typeof received.status !== 'number') {
    return { pass: false, message: () => 'toMatchResponseSchema: expected {method, path, status, body}' };
  }
  const check = checkResponse(received);
  const res = check.resolution;
  if (!res) return { pass: false, message: () => `toMatchResponseSchema: the route map names no schema for ${where}` };
  const label = `${res.schema}${res.array ? '[]' : ''}`;
  return {
    pass: check.valid,
    message: () => (check.valid ? `expected ${where} not to match ${label}` : describeFailure(label, check)),
  };
}

export const schemaMatchers = { toMatchSchema, toMatchResponseSchema };

expect.extend(schemaMatchers);
