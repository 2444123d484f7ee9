// Values a zod v3 model of the official SDK accepts: minimal, maximal, with nulls, and seeded random ones (the fuzzer's
// requests from the deployed contract, and the project's checks of its schemas against the SDK's). Walks `_def.typeName`
// (the SDK's zod instance is not ours). Models are walked before their transform: inbound ones give the wire form
// (`_id`), outbound ones the client's form, which the model's own parse turns into the wire body.
import fc from 'fast-check';

export type Mode = 'minimal' | 'maximal' | 'nulls';

/** What the spec or RULES.md states beyond the SDK's model: the generator keeps to it, so samples stay "allowed". */
export interface Conventions {
  /** Strings for the field at `path` (object keys, no indices) that a rule constrains; undefined: any string. */
  string(path: readonly string[]): fc.Arbitrary<string> | undefined;
  /** The field at `path` is stated as required (the SDK's model leaves it optional): always present, never null. */
  required(path: readonly string[]): boolean;
}

interface Def {
  typeName: string;
  [key: string]: any;
}
type Schema = { _def: Def };

const MAX_DEPTH = 8;

/** One fixed value per mode: required fields only / every field with a value / every nullable field null. */
export function fixedSample(schema: unknown, mode: Mode, conventions: Conventions, seed = 1): unknown {
  return fc.sample(build(schema as Schema, { mode, conventions }, 0, []), { seed, numRuns: 1 })[0];
}

/** `count` random values, reproducible from `seed`. */
export function randomSamples(schema: unknown, count: number, conventions: Conventions, seed: number): unknown[] {
  return fc.sample(build(schema as Schema, { mode: 'random', conventions }, 0, []), { seed, numRuns: count });
}

/** The random generator itself, for fast-check properties (shrinking included). */
export function arbitraryOf(schema: unknown, conventions: Conventions): fc.Arbitrary<unknown> {
  return build(schema as Schema, { mode: 'random', conventions }, 0, []);
}

interface Ctx {
  mode: Mode | 'random';
  conventions: Conventions;
}

function build(schema: Schema, ctx: Ctx, depth: number, path: readonly string[]): fc.Arbitrary<unknown> {
  const def = schema._def;
  switch (def.typeName) {
    case 'ZodObject':
      return object(def.shape() as Record<string, Schema>, ctx, depth, path);
    case 'ZodEffects':
      return build(def.schema, ctx, depth, path);
    case 'ZodPipeline':
      return build(def.in, ctx, depth, path);
    case 'ZodLazy':
      return build(def.getter(), ctx, depth, path);
    case 'ZodBranded':
    case 'ZodReadonly':
      return build(def.type ?? def.innerType, ctx, depth, path);
    case 'ZodCatch':
    case 'ZodDefault':
    case 'ZodOptional':
      return build(def.innerType, ctx, depth, path);
    case 'ZodNullable': {
      const inner = build(def.innerType, ctx, depth, path);
      if (ctx.conventions.required(path)) return inner;
      if (ctx.mode === 'nulls') return fc.constant(null);
      return ctx.mode === 'random' ? fc.option(inner, { nil: null, freq: 4 }) : inner;
    }
    case 'ZodString':
      return ctx.conventions.string(path) ?? string(def);
    case 'ZodNumber':
      return number(def, ctx);
    case 'ZodBoolean':
      return ctx.mode === 'random' ? fc.boolean() : fc.constant(ctx.mode !== 'minimal');
    case 'ZodLiteral':
      return fc.constant(def.value);
    case 'ZodEnum':
      return pick(def.values as unknown[], ctx);
    case 'ZodNativeEnum':
      return pick([...new Set(Object.values(def.values as object))], ctx);
    case 'ZodDate':
      return fc.date({ min: new Date('2000-01-01T00:00:00.000Z'), max: new Date('2099-12-31T23:59:59.999Z'), noInvalidDate: true });
    case 'ZodNull':
      return fc.constant(null);
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion': {
      const options = [...(def.options as Iterable<Schema>)].map((o) => build(o, ctx, depth, path));
      return ctx.mode === 'random' ? fc.oneof(...options) : options[0]!;
    }
    case 'ZodArray': {
      if (depth >= MAX_DEPTH) return fc.constant([]);
      const item = build(def.type, ctx, depth + 1, path);
      const min = def.minLength?.value ?? 0;
      if (ctx.mode === 'random') return fc.array(item, { minLength: min, maxLength: Math.max(min, 3) });
      return fc.array(item, { minLength: ctx.mode === 'minimal' ? min : Math.max(min, 1), maxLength: ctx.mode === 'minimal' ? min : Math.max(min, 1) });
    }
    case 'ZodRecord': {
      if (depth >= MAX_DEPTH) return fc.constant({});
      const value = build(def.valueType, ctx, depth + 1, [...path, '*']);
      if (ctx.mode === 'random') return fc.dictionary(fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,8}$/), value, { maxKeys: 3 });
      return ctx.mode === 'minimal' ? fc.constant({}) : value.map((v) => ({ key: v }));
    }
    case 'ZodAny':
    case 'ZodUnknown':
      return ctx.mode === 'random' ? fc.jsonValue({ maxDepth: 2 }) : fc.constant(ctx.mode === 'nulls' ? null : 'any');
    default:
      throw new Error(`zod-samples: no generator for ${def.typeName} at ${path.join('.') || '(root)'}`);
  }
}

function object(shape: Record<string, Schema>, ctx: Ctx, depth: number, path: readonly string[]): fc.Arbitrary<unknown> {
  // the SDK's error models also carry the exchange itself (request$, response$, body$): not part of the wire body
  const entries = Object.entries(shape).filter(([key]) => !key.endsWith('$'));
  const required = entries.filter(([key, s]) => !omissible(s) || ctx.conventions.required([...path, key])).map(([key]) => key);
  const kept = ctx.mode === 'minimal' || depth >= MAX_DEPTH ? entries.filter(([key]) => required.includes(key)) : entries;
  const arbs = Object.fromEntries(kept.map(([key, s]) => [key, build(s, ctx, depth + 1, [...path, key])]));
  if (ctx.mode === 'random') return fc.record(arbs, { requiredKeys: required });
  return fc.record(arbs);
}

/** A field the model lets a target leave out: optional, or filled in by a default. */
function omissible(schema: Schema): boolean {
  const t = schema._def.typeName;
  if (t === 'ZodOptional' || t === 'ZodDefault') return true;
  if (t === 'ZodEffects') return omissible(schema._def.schema);
  if (t === 'ZodLazy') return omissible(schema._def.getter());
  return false;
}

function string(def: Def): fc.Arbitrary<string> {
  const checks = (def.checks ?? []) as { kind: string; value?: number }[];
  if (checks.some((c) => c.kind === 'datetime')) return isoTimestamp;
  const min = checks.find((c) => c.kind === 'min')?.value ?? 0;
  const max = checks.find((c) => c.kind === 'max')?.value ?? Math.max(min, 12);
  return fc.string({ minLength: min, maxLength: max, unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789') });
}

function number(def: Def, ctx: Ctx): fc.Arbitrary<number> {
  const checks = (def.checks ?? []) as { kind: string; value?: number }[];
  const int = checks.some((c) => c.kind === 'int');
  const min = checks.find((c) => c.kind === 'min')?.value ?? 0;
  const max = checks.find((c) => c.kind === 'max')?.value ?? 10_000;
  if (ctx.mode !== 'random') return fc.constant(min);
  return int ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
}

function pick(values: unknown[], ctx: Ctx): fc.Arbitrary<unknown> {
  return ctx.mode === 'random' ? fc.constantFrom(...values) : fc.constant(values[0]);
}

export const isoTimestamp: fc.Arbitrary<string> = fc
  .date({ min: new Date('2000-01-01T00:00:00.000Z'), max: new Date('2099-12-31T23:59:59.999Z'), noInvalidDate: true })
  .map((d) => d.toISOString());
