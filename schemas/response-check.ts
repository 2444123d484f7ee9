// Validates one captured response through the route map: unwrap, array items, string bodies. Used by the matchers and the harness.
import { registry, type ValidateOptions, type ValidationResult } from './registry.ts';
import { resolveResponseSchema, unwrapData, type ResponseSchema } from './route-map.ts';
import type { Violation } from './violations.ts';

export interface CapturedResponse {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

export interface ResponseCheck extends ValidationResult {
  /** undefined: the route map names no schema for this response. */
  resolution: ResponseSchema | undefined;
}

export function checkResponse(res: CapturedResponse, opts: ValidateOptions = {}): ResponseCheck {
  const resolution = resolveResponseSchema(res.method, res.path, res.status, res.body);
  if (!resolution) return { resolution, valid: true, violations: [], warnings: [] };
  return { resolution, ...validateResolved(resolution, res.body, opts) };
}

export function validateResolved(resolution: ResponseSchema, rawBody: unknown, opts: ValidateOptions = {}): ValidationResult {
  if (resolution.acceptsString && typeof rawBody === 'string') return { valid: true, violations: [], warnings: [] };
  const body = resolution.unwrap ? unwrapData(rawBody) : rawBody;
  if (!resolution.array) return registry.validate(resolution.schema, body, opts);
  if (!Array.isArray(body)) {
    const v: Violation = { path: '', rule: `type array of ${resolution.schema}`, value: body, message: 'must be array' };
    return { valid: false, violations: [v], warnings: [] };
  }
  return validateItems(resolution.schema, body, opts);
}

/** Each item against the schema; paths are prefixed with the item's index. */
export function validateItems(schema: ResponseSchema['schema'], items: readonly unknown[], opts: ValidateOptions = {}): ValidationResult {
  const out: ValidationResult = { valid: true, violations: [], warnings: [] };
  items.forEach((item, i) => {
    const r = registry.validate(schema, item, opts);
    out.valid &&= r.valid;
    out.violations.push(...r.violations.map((v) => ({ ...v, path: `/${i}${v.path}` })));
    out.warnings.push(...r.warnings.map((v) => ({ ...v, path: `/${i}${v.path}` })));
  });
  return out;
}
