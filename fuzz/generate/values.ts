// The leaf generators: strings across the shapes that break storage layers (unicode, control characters, long,
// empty, markup and format tokens), numbers at the edges, and free-form JSON with arbitrary keys and nesting.
import fc, { type Arbitrary } from 'fast-check';

/** Strings that often mean something to a parser, template engine or database. */
const SPECIAL_STRINGS = [
  '', ' ', '\u0000', '\t', '\r\n', 'null', 'undefined', 'true', '0', '-1', 'NaN', '{}', '[]', '\\', '"', "'", '%', '%00', '%s',
  '../..', '<script>alert(1)</script>', '${x}', '{{x}}', '$where', 'a.b', 'ü', '🙂', '\u202e', '\ufeff', 'a\u0301', '\u00a0',
];

export interface LengthBounds {
  minLength?: number;
  maxLength?: number;
}

/** Free text within the bounds (counted in code points, as JSON Schema counts). */
export function text({ minLength = 0, maxLength }: LengthBounds = {}): Arbitrary<string> {
  const branches: fc.WeightedArbitrary<string>[] = [];
  const add = (weight: number, unit: fc.StringConstraints['unit'], lo: number, hi: number) => {
    const bounds = { minLength: Math.max(minLength, lo), maxLength: Math.min(maxLength ?? hi, hi) };
    if (bounds.minLength <= bounds.maxLength) branches.push({ weight, arbitrary: fc.string({ unit, ...bounds }) });
  };
  add(4, 'grapheme-ascii', 0, 24);
  add(2, 'grapheme-composite', 0, 24);
  add(1, 'binary', 0, 24);
  // long strings: columns, buffers and indexes have length limits nobody wrote down
  const long = { lo: Math.max(minLength, 100), hi: Math.min(maxLength ?? 1_000, 1_000) };
  if (long.lo <= long.hi) branches.push({ weight: 1, arbitrary: repeated(long.lo, long.hi) });
  // the bounds themselves
  if (maxLength !== undefined) add(1, 'grapheme-ascii', maxLength, maxLength);
  if (minLength > 0) add(1, 'grapheme-ascii', minLength, minLength);
  const fits = (s: string) => [...s].length >= minLength && (maxLength === undefined || [...s].length <= maxLength);
  const special = SPECIAL_STRINGS.filter(fits);
  if (special.length > 0) branches.push({ weight: 1, arbitrary: fc.constantFrom(...special) });
  return fc.oneof({ withCrossShrink: true }, ...branches);
}

/**
 * `lo`..`hi` code points made of a short repeated chunk (ASCII, accents, CJK, emoji): shrinking works on the chunk
 * and the length, a few steps each, instead of one request per character.
 */
function repeated(lo: number, hi: number): Arbitrary<string> {
  const chunk = fc.string({ unit: fc.constantFrom('a', 'Z', '0', 'é', '中', '🙂', ' ', '-', '\u0301'), minLength: 1, maxLength: 8 });
  return fc.tuple(chunk, fc.integer({ min: lo, max: hi })).map(([c, n]) => {
    const points = [...c];
    return Array.from({ length: n }, (_, i) => points[i % points.length]).join('');
  });
}

/** Keys of free-form objects: short, sometimes unicode, sometimes empty or dotted. */
export const objectKey: Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-composite', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom('', 'a.b', '$set', 'constructor', 'toString', 'data', 'id', '🙂') },
);

export function numberWithin(schema: { minimum?: number; maximum?: number }, integer: boolean): Arbitrary<number> {
  const min = schema.minimum;
  const max = schema.maximum;
  const ints = fc.integer({ min: min ?? Number.MIN_SAFE_INTEGER, max: max ?? Number.MAX_SAFE_INTEGER });
  if (integer) return ints;
  const doubles = fc.double({ noNaN: true, noDefaultInfinity: true, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) });
  return fc.oneof(ints, doubles);
}

const scalar: Arbitrary<unknown> = fc.oneof(text(), numberWithin({}, false), fc.boolean(), fc.constant(null));

/** Any JSON value, nested up to four levels: arrays of objects, objects of arrays, empty containers. */
export const jsonValue: Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 4, depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(objectKey, tie('value'), { maxKeys: 5, noNullPrototype: true }),
  ),
})).value;

/** A free-form object: arbitrary keys, any JSON values (including nested arrays of objects), sometimes empty. */
export const freeFormObject: Arbitrary<Record<string, unknown>> = fc.dictionary(objectKey, jsonValue, { maxKeys: 6, noNullPrototype: true });

/** An ISO-8601 date-time, as the `date-time` format and the wire conventions want. */
export const isoDateTime: Arbitrary<string> = fc
  .date({ min: new Date('1970-01-01T00:00:00.000Z'), max: new Date('2100-01-01T00:00:00.000Z'), noInvalidDate: true })
  .map((d) => d.toISOString());
