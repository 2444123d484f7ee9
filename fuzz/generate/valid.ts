// JSON Schema → fast-check arbitrary of VALID values, over the schema's whole shape: every optional field present
// or absent, every enum value and branch, arrays at their boundary counts, free-form objects with arbitrary keys
// and nesting. The caller still validates each value with the registry: the translation may not lie.
import fc, { type Arbitrary } from 'fast-check';
import type { JsonSchema } from '../../schemas/schema-files.ts';
import { additionalOf, alternatives, flatten, isFreeForm, propertiesOf, typesOf, type JsonType, type Node } from './schema-nodes.ts';
import { freeFormObject, isoDateTime, jsonValue, numberWithin, objectKey, text } from './values.ts';

const ABSENT = Symbol('absent');

/** Arrays without a `maxItems` get at most this many items (beyond the boundary cases). */
const UNBOUNDED_ARRAY_ITEMS = 8;

export function validArbitrary(input: Node): Arbitrary<unknown> {
  const alts = alternatives(input);
  if (alts) return fc.oneof({ withCrossShrink: true }, ...alts.map(validArbitrary));
  const node = flatten(input);
  const { schema } = node;
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const types = typesOf(schema) ?? (schema.properties || schema.required ? ['object' as const] : undefined);
  if (!types) return jsonValue;
  const arbs = types.map((t) => ofType(t, node));
  return arbs.length === 1 ? arbs[0]! : fc.oneof({ withCrossShrink: true }, ...arbs);
}

function ofType(type: JsonType, node: Node): Arbitrary<unknown> {
  const s = node.schema;
  switch (type) {
    case 'null': return fc.constant(null);
    case 'boolean': return fc.boolean();
    case 'integer': return numberWithin(s as { minimum?: number; maximum?: number }, true);
    case 'number': return numberWithin(s as { minimum?: number; maximum?: number }, false);
    case 'string': return stringArbitrary(s);
    case 'array': return arrayArbitrary(node);
    case 'object': return objectArbitrary(node);
  }
}

function stringArbitrary(s: JsonSchema): Arbitrary<string> {
  if (s.format === 'date-time') return isoDateTime;
  if (typeof s.pattern === 'string') return matching(s.pattern);
  return text({ ...(typeof s.minLength === 'number' ? { minLength: s.minLength } : {}), ...(typeof s.maxLength === 'number' ? { maxLength: s.maxLength } : {}) });
}

// why: building a pattern's arbitrary walks its character classes; rebuilt per schema node it cost the fuzz tests 1.2 s of CPU
const byPattern = new Map<string, Arbitrary<string>>();

function matching(pattern: string): Arbitrary<string> {
  let arbitrary = byPattern.get(pattern);
  if (!arbitrary) byPattern.set(pattern, (arbitrary = fc.stringMatching(new RegExp(pattern))));
  return arbitrary;
}

/** Any length within the bounds, plus the boundary counts themselves: empty, one, and the maximum. */
function arrayArbitrary(node: Node): Arbitrary<unknown[]> {
  const item = node.schema.items ? validArbitrary({ schema: node.schema.items as JsonSchema, root: node.root }) : jsonValue;
  const min = typeof node.schema.minItems === 'number' ? node.schema.minItems : 0;
  const max = typeof node.schema.maxItems === 'number' ? node.schema.maxItems : undefined;
  const exactly = (n: number) => fc.array(item, { minLength: n, maxLength: n });
  const branches: fc.WeightedArbitrary<unknown[]>[] = [
    { weight: 6, arbitrary: fc.array(item, { minLength: min, maxLength: Math.min(max ?? UNBOUNDED_ARRAY_ITEMS, Math.max(min, UNBOUNDED_ARRAY_ITEMS)) }) },
    { weight: 1, arbitrary: exactly(min) },
  ];
  if (min <= 1 && (max === undefined || max >= 1)) branches.push({ weight: 1, arbitrary: exactly(1) });
  if (max !== undefined && max > UNBOUNDED_ARRAY_ITEMS) branches.push({ weight: 1, arbitrary: ofLength(max, item) });
  return fc.oneof({ withCrossShrink: true }, ...branches);
}

/**
 * Exactly `length` items, cycled from a few generated ones: the count stays at the boundary while shrinking
 * reduces the few to the one that matters (an array of fixed length could only shrink item by item).
 */
export function ofLength(length: number, item: Arbitrary<unknown>): Arbitrary<unknown[]> {
  return fc.array(item, { minLength: 1, maxLength: 4 }).map((few) => Array.from({ length }, (_, i) => few[i % few.length]));
}

/**
 * Declared properties as in the schema (required always, optional present or absent); extra keys only where the
 * schema gives them a schema (`additionalProperties`) or declares nothing (free-form). Objects that declare their
 * properties get no undeclared ones: a target may legitimately refuse unknown fields.
 */
function objectArbitrary(node: Node): Arbitrary<Record<string, unknown>> {
  if (isFreeForm(node)) return freeFormObject;
  const required = (node.schema.required as string[] | undefined) ?? [];
  const model: Record<string, Arbitrary<unknown>> = {};
  for (const [key, sub] of propertiesOf(node)) model[key] = validArbitrary(sub);
  for (const key of required) model[key] ??= jsonValue;
  // each optional field present half the time (shrinking leaves it out)
  const fields = Object.entries(model).map(([key, arb]) => (required.includes(key) ? arb : fc.option(arb, { nil: ABSENT, freq: 2 })).map((v) => [key, v] as const));
  const declared = fc.tuple(...fields).map((pairs) => Object.fromEntries(pairs.filter(([, v]) => v !== ABSENT)));
  const addl = additionalOf(node);
  if (!addl) return declared;
  const extraKey = objectKey.filter((k) => !(k in model));
  const extras = fc.dictionary(extraKey, validArbitrary(addl), { maxKeys: 5, noNullPrototype: true });
  return fc.tuple(declared, extras).map(([d, e]) => ({ ...e, ...d }));
}

export type { Node };
