// Turns Ajv errors into Violations: JSON-pointer path into the body, the rule that failed, the offending value.
import type { ErrorObject } from 'ajv';

export interface Violation {
  /** JSON pointer into the validated body ('' is the whole body). */
  path: string;
  /** Keyword and schema location, e.g. `enum StepUpsertDto/properties/type/enum`. */
  rule: string;
  value: unknown;
  message: string;
}

export function toViolations(errors: readonly ErrorObject[] | null | undefined, data: unknown, schemaName = ''): Violation[] {
  const all = errors ?? [];
  const paths = new Set(all.map((e) => e.instancePath));
  return all.filter((e) => !isRedundantDiscriminator(e, paths)).map((e) => toViolation(e, data, schemaName));
}

// the top-level `type` enum/required error already says what the discriminator error says, at the precise path
function isRedundantDiscriminator(e: ErrorObject, paths: Set<string>): boolean {
  if (e.keyword !== 'discriminator') return false;
  const tag = String((e.params as { tag?: unknown }).tag);
  return paths.has(`${e.instancePath}/${escapePointer(tag)}`);
}

function toViolation(e: ErrorObject, data: unknown, schemaName: string): Violation {
  // a path into the validated schema itself starts with '#'; into a referenced one, with that schema's $id
  const schemaPath = e.schemaPath.startsWith('#') ? `${schemaName}${e.schemaPath}` : e.schemaPath;
  const rule = `${e.keyword} ${schemaPath}`;
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required') {
    const path = `${e.instancePath}/${escapePointer(String(params.missingProperty))}`;
    return { path, rule, value: undefined, message: 'is required' };
  }
  if (e.keyword === 'additionalProperties') {
    const path = `${e.instancePath}/${escapePointer(String(params.additionalProperty))}`;
    return { path, rule, value: valueAt(data, path), message: 'is not a property the schema defines' };
  }
  if (e.keyword === 'discriminator') {
    const path = `${e.instancePath}/${escapePointer(String(params.tag))}`;
    return { path, rule, value: valueAt(data, path), message: e.message ?? 'has no matching variant' };
  }
  if (e.keyword === 'false schema') {
    return { path: e.instancePath, rule, value: valueAt(data, e.instancePath), message: 'must not be present' };
  }
  return { path: e.instancePath, rule, value: valueAt(data, e.instancePath), message: e.message ?? e.keyword };
}

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The value at a JSON pointer, or undefined when the path does not exist. */
export function valueAt(data: unknown, pointer: string): unknown {
  if (pointer === '') return data;
  let node: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** One line per violation: `Schema: /path message (got value)`. */
export function formatViolation(schema: string, v: Violation): string {
  const got = v.value === undefined ? 'missing' : `got ${safeJson(v.value)}`;
  return `${schema}: ${v.path || '/'} ${v.message} (${got})`;
}

function safeJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
