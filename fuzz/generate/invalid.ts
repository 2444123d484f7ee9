// JSON Schema → fast-check arbitrary of values broken at exactly ONE place: a wrong type, a value outside an enum
// or pattern or format, a count or length one past its bound, a required field left out. Everything else is valid.
// Each value says where it is broken (a JSON pointer) and how, so a finding can name the rule that field belongs to.
import fc, { type Arbitrary } from 'fast-check';
import type { JsonSchema } from '../../schemas/schema-files.ts';
import { escapePointer } from '../../schemas/violations.ts';
import { additionalOf, alternatives, flatten, propertiesOf, typesOf, type JsonType, type Node } from './schema-nodes.ts';
import { objectKey, text } from './values.ts';
import { ofLength, validArbitrary } from './valid.ts';

export type Violation = 'type' | 'enum' | 'const' | 'pattern' | 'format' | 'maxLength' | 'minLength' | 'maximum' | 'minimum' | 'maxItems' | 'minItems' | 'required';

export interface Broken {
  value: unknown;
  /** JSON pointer of the broken place ('' is the whole value; for `required`, the missing field). */
  pointer: string;
  violation: Violation;
}

export interface InvalidOptions {
  /** The value travels as text (a query parameter): wrong JSON types cannot be expressed, so none are generated. */
  textOnly?: boolean;
}

/** One representative of each JSON type, for "wrong type" values. */
const SAMPLES: Record<JsonType, unknown> = { null: null, boolean: true, integer: 7, number: 1.5, string: 'x', array: [], object: {} };

export function invalidArbitrary(input: Node, options: InvalidOptions = {}): Arbitrary<Broken> | undefined {
  return oneOf(branchesFor(input, options));
}

function branchesFor(input: Node, options: InvalidOptions): Arbitrary<Broken>[] {
  const alts = alternatives(input);
  // a value broken inside one alternative usually fails the others too; the registry check drops those that do not
  if (alts) return alts.flatMap((alt) => branchesFor(alt, options));
  const node = flatten(input);
  const { schema } = node;
  const at = (violation: Violation) => (value: unknown): Broken => ({ value, pointer: '', violation });
  if ('const' in schema) return [fc.constantFrom(...wrongValues([schema.const])).map(at('const'))];
  if (Array.isArray(schema.enum)) return [fc.constantFrom(...wrongValues(schema.enum as unknown[])).map(at('enum'))];
  const types = typesOf(schema) ?? (schema.properties || schema.required ? ['object' as const] : undefined);
  if (!types) return [];
  const branches: Arbitrary<Broken>[] = [];
  const wrong = wrongTypes(types);
  if (wrong.length > 0 && !options.textOnly) branches.push(fc.constantFrom(...wrong).map(at('type')));
  for (const t of types) branches.push(...forType(t, node, options));
  return branches;
}

function forType(type: JsonType, node: Node, options: InvalidOptions): Arbitrary<Broken>[] {
  const s = node.schema;
  const at = (violation: Violation) => (value: unknown): Broken => ({ value, pointer: '', violation });
  const out: Arbitrary<Broken>[] = [];
  if (type === 'string') {
    if (typeof s.pattern === 'string') {
      const re = new RegExp(s.pattern);
      out.push(fc.oneof(fc.constantFrom('', ' ', 'with space', '-leading', 'trailing-', 'a!b', 'ü'), text()).filter((v) => !re.test(v)).map(at('pattern')));
    }
    if (s.format === 'date-time') out.push(fc.constantFrom('not a date', '2026-13-45T25:61:00Z', '01/02/2026', '').map(at('format')));
    if (typeof s.maxLength === 'number') out.push(fc.string({ unit: 'grapheme-ascii', minLength: s.maxLength + 1, maxLength: s.maxLength + 1 }).map(at('maxLength')));
    if (typeof s.minLength === 'number' && s.minLength > 0) out.push(fc.string({ unit: 'grapheme-ascii', maxLength: s.minLength - 1 }).map(at('minLength')));
  }
  if (type === 'number' || type === 'integer') {
    if (typeof s.minimum === 'number') out.push(fc.constant(s.minimum - 1).map(at('minimum')));
    if (typeof s.maximum === 'number') out.push(fc.constant(s.maximum + 1).map(at('maximum')));
  }
  if (type === 'array') out.push(...arrayBranches(node, options));
  if (type === 'object') out.push(...objectBranches(node, options));
  return out;
}

function arrayBranches(node: Node, options: InvalidOptions): Arbitrary<Broken>[] {
  const itemNode: Node | undefined = node.schema.items ? { schema: node.schema.items as JsonSchema, root: node.root } : undefined;
  if (!itemNode) return [];
  const item = validArbitrary(itemNode);
  const out: Arbitrary<Broken>[] = [];
  const badItem = invalidArbitrary(itemNode, options);
  if (badItem) {
    out.push(
      fc.tuple(fc.array(item, { maxLength: 3 }), badItem, fc.nat()).map(([items, bad, n]) => {
        const index = n % (items.length + 1);
        const value = [...items.slice(0, index), bad.value, ...items.slice(index)];
        return { value, pointer: `/${index}${bad.pointer}`, violation: bad.violation };
      }),
    );
  }
  const max = node.schema.maxItems;
  if (typeof max === 'number') out.push(ofLength(max + 1, item).map((value) => ({ value, pointer: '', violation: 'maxItems' as const })));
  const min = node.schema.minItems;
  if (typeof min === 'number' && min > 0) out.push(fc.array(item, { maxLength: min - 1 }).map((value) => ({ value, pointer: '', violation: 'minItems' as const })));
  return out;
}

function objectBranches(node: Node, options: InvalidOptions): Arbitrary<Broken>[] {
  const whole = validArbitrary(node) as Arbitrary<Record<string, unknown>>;
  const out: Arbitrary<Broken>[] = [];
  for (const key of (node.schema.required as string[] | undefined) ?? []) {
    out.push(whole.map((o) => {
      const { [key]: _left, ...value } = o;
      return { value, pointer: `/${escapePointer(key)}`, violation: 'required' as const };
    }));
  }
  for (const [key, sub] of propertiesOf(node)) {
    const bad = invalidArbitrary(sub, options);
    if (bad) out.push(fc.tuple(whole, bad).map(([o, b]) => ({ value: { ...o, [key]: b.value }, pointer: `/${escapePointer(key)}${b.pointer}`, violation: b.violation })));
  }
  const addl = additionalOf(node);
  const badExtra = addl && invalidArbitrary(addl, options);
  if (badExtra) {
    const declared = new Set(propertiesOf(node).map(([k]) => k));
    const key = objectKey.filter((k) => !declared.has(k));
    out.push(fc.tuple(whole, key, badExtra).map(([o, k, b]) => ({ value: { ...o, [k]: b.value }, pointer: `/${escapePointer(k)}${b.pointer}`, violation: b.violation })));
  }
  return out;
}

/** Values of every JSON type the node does not admit (an integer admits no fraction; a number admits integers). */
function wrongTypes(types: JsonType[]): unknown[] {
  const admits = (t: JsonType) => types.includes(t) || (t === 'integer' && types.includes('number'));
  return (Object.keys(SAMPLES) as JsonType[]).filter((t) => !admits(t)).map((t) => SAMPLES[t]);
}

/** Values outside an enum (or const): other strings, and values of other types. */
function wrongValues(allowed: unknown[]): unknown[] {
  const candidates = ['not-an-allowed-value', '', ...allowed.filter((a): a is string => typeof a === 'string').map((a) => a.toUpperCase() + '_'), 0, true, null];
  return candidates.filter((c) => !allowed.some((a) => a === c));
}

function oneOf(branches: Arbitrary<Broken>[]): Arbitrary<Broken> | undefined {
  if (branches.length === 0) return undefined;
  return branches.length === 1 ? branches[0] : fc.oneof(...branches);
}
