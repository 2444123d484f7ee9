// Ajv compilation of workflow payload schemas (once per workflow) and trigger payload checks.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { App } from './context.ts';
import { isPlainObject } from './util.ts';

const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: true });
// why: ajv-formats is CommonJS; its default import is the plugin function under tsx/vitest
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => Ajv;
addFormats(ajv);

/** Compiles a schema, or returns the reason it is not a valid JSON Schema. */
export function compilePayloadSchema(schema: Record<string, unknown>): ValidateFunction | string {
  try {
    return ajv.compile(schema);
  } catch (e) {
    return e instanceof Error ? e.message : 'invalid JSON Schema';
  }
}

export interface PayloadIssue {
  field: string;
  message: string;
  value: unknown;
  schemaPath: string;
}

export function describeErrors(errors: readonly ErrorObject[], payload: unknown, app: Pick<App, 'has'>): PayloadIssue[] {
  const issues = errors.map((e) => {
    const pointer = e.instancePath;
    let field = app.has('payload-error-field-as-pointer') ? pointer : pointer.replace(/^\//, '').replace(/\//g, '.');
    if (e.keyword === 'required' && typeof e.params.missingProperty === 'string' && !app.has('payload-error-required-field-unnamed')) {
      field = field ? `${field}.${e.params.missingProperty}` : e.params.missingProperty;
    }
    const value = app.has('payload-error-value-lost') && (pointer === '' || /\/\d+(\/|$)/.test(pointer)) ? null : (valueAt(payload, pointer) ?? null);
    return { field: field || 'payload', message: e.message ?? 'is invalid', value, schemaPath: e.schemaPath };
  });
  return app.has('payload-error-first-only') ? issues.slice(0, 1) : issues;
}

function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let cur: unknown = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) cur = cur[Number(key)];
    else if (isPlainObject(cur)) cur = cur[key];
    else return undefined;
  }
  return cur;
}

/** A sample payload shaped by the schema (the workflow's `payloadExample`). */
export function exampleFromSchema(schema: unknown, depth = 0): unknown {
  if (!isPlainObject(schema) || depth > 8) return null;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return schema.format === 'email' ? 'user@example.com' : schema.format === 'date-time' ? '2026-01-01T00:00:00.000Z' : 'string';
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'null':
      return null;
    default: {
      if (!isPlainObject(schema.properties)) return type === 'object' ? {} : null;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(schema.properties)) out[k] = exampleFromSchema(v, depth + 1);
      return out;
    }
  }
}
