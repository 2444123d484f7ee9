// The generators translate each request schema faithfully: every valid value validates, (almost) every invalid
// value does not and says where it breaks, and the samples cover the whole shape (each declared field, the boundary
// counts, long and unicode strings, empty and nested free-form objects).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidArbitrary, type Broken } from '../../fuzz/generate/invalid.ts';
import { additionalOf, alternatives, flatten, propertiesOf, schemaNode, type Node } from '../../fuzz/generate/schema-nodes.ts';
import { validArbitrary } from '../../fuzz/generate/valid.ts';
import { FUZZ_TARGETS } from '../../fuzz/targets.ts';
import { registry, type SchemaName } from '../../schemas/registry.ts';
import { formatViolation } from '../../schemas/violations.ts';

const SAMPLES = 300;
const BODIES = [...new Set(FUZZ_TARGETS.flatMap((t) => (t.body ? [t.body] : [])))] as SchemaName[];

/** Every declared field as a pointer pattern (`*` for an array index or a map key). */
function declaredPaths(node: Node, prefix = ''): string[] {
  const alts = alternatives(node);
  if (alts) return [...new Set(alts.flatMap((a) => declaredPaths(a, prefix)))];
  const n = flatten(node);
  const out: string[] = [];
  for (const [key, sub] of propertiesOf(n)) out.push(`${prefix}/${key}`, ...declaredPaths(sub, `${prefix}/${key}`));
  if (n.schema.items) out.push(...declaredPaths({ schema: n.schema.items as Node['schema'], root: n.root }, `${prefix}/*`));
  const addl = additionalOf(n);
  if (addl) out.push(...declaredPaths(addl, `${prefix}/*`));
  return out;
}

function pointers(value: unknown, prefix = '', out: string[] = []): string[] {
  out.push(prefix);
  if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) pointers(v, `${prefix}/${k}`, out);
  return out;
}

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

describe.each(BODIES)('%s', (name) => {
  const node = schemaNode(name);
  const valid = fc.sample(validArbitrary(node), { numRuns: SAMPLES, seed: 42 });

  it(`every generated valid body validates against the registry (${SAMPLES} samples)`, () => {
    for (const body of valid) {
      const r = registry.validate(name, body);
      expect(r.violations.map((v) => formatViolation(name, v)), JSON.stringify(body).slice(0, 500)).toEqual([]);
    }
  });

  it('the valid samples cover every declared field', () => {
    const seen = new Set(valid.flatMap((b) => pointers(b)));
    const missing = declaredPaths(node).filter((pattern) => {
      const re = new RegExp(`^${pattern.replace(/[.$]/g, '\\$&').replace(/\*/g, '[^/]+')}$`);
      return ![...seen].some((p) => re.test(p));
    });
    expect(missing).toEqual([]);
  });

  it('invalid bodies are invalid where they say (≥ 95%; the registry drops the rest before sending)', () => {
    const broken = fc.sample(invalidArbitrary(node)!, { numRuns: SAMPLES, seed: 42 }) as Broken[];
    let invalid = 0;
    for (const b of broken) {
      const r = registry.validate(name, b.value);
      if (r.valid) continue;
      invalid += 1;
      const related = r.violations.some((v) => v.path === b.pointer || v.path.startsWith(`${b.pointer}/`) || b.pointer.startsWith(`${v.path}/`) || v.path === '');
      expect(related, `${b.pointer} ${b.violation}: ${r.violations.map((v) => formatViolation(name, v)).join('; ')}`).toBe(true);
    }
    expect(invalid / broken.length).toBeGreaterThanOrEqual(0.95);
  });
});

describe('the whole shape, not examples', () => {
  it('arrays reach their boundary counts: empty, one, and the maximum (100 recipients)', () => {
    const lengths = new Set(fc.sample(validArbitrary(schemaNode('TriggerEventRequestDto')), { numRuns: SAMPLES, seed: 42 }).map((b) => (b as { to: unknown[] }).to.length));
    expect([0, 1, 100].filter((n) => !lengths.has(n))).toEqual([]);
  });

  it('strings are long, unicode, empty, control characters; free-form objects are empty or nested with arrays of objects', () => {
    const bodies = BODIES.flatMap((name) => fc.sample(validArbitrary(schemaNode(name)), { numRuns: SAMPLES, seed: 7 }));
    const all = bodies.flatMap((b) => strings(b));
    expect(all.some((s) => [...s].length > 120)).toBe(true);
    expect(all.some((s) => /[^\x00-\x7f]/.test(s))).toBe(true);
    expect(all.some((s) => /[\u{1F300}-\u{1FAFF}]/u.test(s))).toBe(true);
    expect(all.some((s) => /[\x00-\x1f]/.test(s))).toBe(true);
    expect(all).toContain('');
    const json = bodies.map((b) => JSON.stringify(b));
    expect(json.some((t) => t.includes(':{}'))).toBe(true);
    expect(json.some((t) => /\[\{"/.test(t))).toBe(true);
  });

  it('invalid bodies break each kind of constraint the request schemas use', () => {
    const kinds = new Set(BODIES.flatMap((name) => (fc.sample(invalidArbitrary(schemaNode(name))!, { numRuns: SAMPLES, seed: 42 }) as Broken[]).map((b) => b.violation)));
    // (no request schema states a format since lastOnlineAt follows the deployed contract: any string)
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['enum', 'maxItems', 'minLength', 'pattern', 'required', 'type']));
  });

  it('a query parameter is only broken in ways a query string can carry (no wrong JSON types)', () => {
    const query = FUZZ_TARGETS.find((t) => t.query)!.query!;
    const broken = fc.sample(invalidArbitrary({ schema: query, root: query }, { textOnly: true })!, { numRuns: 50, seed: 1 }) as Broken[];
    expect(new Set(broken.map((b) => b.violation))).toEqual(new Set(['maxLength']));
    for (const b of broken) expect(typeof (b.value as Record<string, unknown>).search).toBe('string');
  });
});
