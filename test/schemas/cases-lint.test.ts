// Lints schemas/cases: every schema has a cases file with a minimal and a maximal valid document, an invalid document
// per required property and a failing document for every top-level property; every invalid document says where it fails.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_NAMES, isSchemaName } from '../../schemas/names.ts';
import { loadSchema, type JsonSchema } from '../../schemas/schema-files.ts';
import { CASES_DIR, caseFileNames, loadCases, type SchemaCase } from './case-files.ts';

// a discriminated union's properties and required live both at the top and in each branch
function branches(schema: JsonSchema): JsonSchema[] {
  return [schema, ...((schema.oneOf as JsonSchema[] | undefined) ?? [])];
}
const requiredOf = (s: JsonSchema) => [...new Set(branches(s).flatMap((b) => (b.required as string[] | undefined) ?? []))];
const propertiesOf = (s: JsonSchema) =>
  [...new Set(branches(s).flatMap((b) => Object.entries((b.properties as Record<string, unknown>) ?? {}).filter(([, v]) => v !== false).map(([k]) => k)))];
const isObject = (d: unknown): d is Record<string, unknown> => d !== null && typeof d === 'object' && !Array.isArray(d);
const JSON_TYPES = ['string', 'number', 'boolean', 'object', 'array', 'null'];
/** A property that admits every JSON value (e.g. ErrorDto `message`) has no failing document to show. */
function admitsAnything(schema: JsonSchema, prop: string): boolean {
  let p = branches(schema).map((b) => (b.properties as Record<string, JsonSchema> | undefined)?.[prop]).find(Boolean);
  const ref = p?.$ref as string | undefined;
  if (ref?.includes('#/properties/')) {
    const [name, field] = ref.split('#/properties/') as [string, string];
    p = (loadSchema(name as never).properties as Record<string, JsonSchema>)[field];
  }
  if (!p) return false;
  const types = p.type === undefined ? JSON_TYPES : ([] as string[]).concat(p.type as string[]);
  return JSON_TYPES.every((t) => types.includes(t)) && Object.keys(p).every((k) => ['type', 'description'].includes(k));
}

describe('schemas/cases lint', () => {
  it('has exactly one cases file per schema', () => {
    expect(caseFileNames()).toEqual([...SCHEMA_NAMES].sort().map((n) => `${n}.cases.json`).sort());
  });

  for (const name of SCHEMA_NAMES) {
    describe(name, () => {
      const file = `${name}.cases.json`;
      const groups = existsSync(join(CASES_DIR, file)) ? loadCases(file) : [];
      const tests: SchemaCase[] = groups.flatMap((g) => g.tests);
      const invalid = tests.filter((t) => !t.valid);
      const schema = loadSchema(name);

      it('every group targets this schema by $ref and cites its spec section', () => {
        expect(groups.length).toBeGreaterThan(0);
        for (const g of groups) {
          expect(g.schema).toEqual({ $ref: name });
          expect(isSchemaName(g.schema.$ref)).toBe(true);
          expect(g.specSection ?? '', `group "${g.description}" needs a specSection`).not.toBe('');
        }
      });

      it('has a minimal and a maximal valid document; the maximal one carries every top-level property', () => {
        const minimal = tests.find((t) => t.valid && t.description.startsWith('minimal valid'));
        const maximal = tests.find((t) => t.valid && t.description.startsWith('maximal valid'));
        expect(minimal, 'minimal valid document').toBeDefined();
        expect(maximal, 'maximal valid document').toBeDefined();
        if (isObject(maximal?.data)) expect(Object.keys(maximal.data)).toEqual(expect.arrayContaining(propertiesOf(schema)));
      });

      it('has an invalid document per required property, missing just that property', () => {
        for (const prop of requiredOf(schema)) {
          const hit = invalid.some((t) => isObject(t.data) && !(prop in t.data) && t.failsAt === `/${prop}`);
          expect(hit, `no invalid case lacking required "${prop}"`).toBe(true);
        }
      });

      it('has a failing document for every top-level property', () => {
        for (const prop of propertiesOf(schema).filter((p) => !admitsAnything(schema, p))) {
          const hit = invalid.some((t) => t.failsAt === `/${prop}` || t.failsAt?.startsWith(`/${prop}/`));
          expect(hit, `no invalid case failing at /${prop}`).toBe(true);
        }
      });

      it('every invalid document names where it fails (failsAt)', () => {
        for (const t of invalid) expect(typeof t.failsAt, t.description).toBe('string');
      });
    });
  }
});
