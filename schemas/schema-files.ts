// Reads the schema JSON files and derives their closed ("strict") variants; shared by the registry, the generator and the bench.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCHEMA_NAMES, STRICT_PREFIX, type SchemaName } from './names.ts';

export const SCHEMAS_DIR = dirname(fileURLToPath(import.meta.url));

export type JsonSchema = Record<string, unknown>;

export function schemaPath(name: SchemaName): string {
  return join(SCHEMAS_DIR, `${name}.schema.json`);
}

export function loadSchema(name: SchemaName): JsonSchema {
  return JSON.parse(readFileSync(schemaPath(name), 'utf8')) as JsonSchema;
}

export function loadAllSchemas(): JsonSchema[] {
  return SCHEMA_NAMES.map(loadSchema);
}

/** The closed copy: every plain object schema with `properties` gets `additionalProperties: false`. */
export function closedVariant(schema: JsonSchema): JsonSchema {
  const copy = close(structuredClone(schema)) as JsonSchema;
  copy.$id = STRICT_PREFIX + String(schema.$id);
  return copy;
}

const COMPOSITION = ['oneOf', 'anyOf', 'allOf', 'discriminator'];

function close(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(close);
  if (node === null || typeof node !== 'object') return node;
  const obj = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(obj)) {
    // `properties`/`definitions` hold maps of schemas, never schemas themselves
    if ((key === 'properties' || key === 'definitions') && value && typeof value === 'object') {
      for (const [k, sub] of Object.entries(value)) (value as Record<string, unknown>)[k] = close(sub);
    } else if (key !== 'enum' && key !== 'const' && key !== 'discriminator') {
      obj[key] = close(value);
    }
  }
  // composed schemas and schemas without a type are partial views: closing them would reject their siblings' fields
  const closable =
    obj.type === 'object' && obj.properties !== undefined && obj.additionalProperties === undefined &&
    !COMPOSITION.some((k) => k in obj);
  if (closable) obj.additionalProperties = false;
  return obj;
}
