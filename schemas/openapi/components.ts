// The registry's draft-07 schemas as OpenAPI 3.1 components: same constraints, references rewritten to the document.
import { SCHEMA_NAMES, type SchemaName } from '../names.ts';
import { loadSchema, type JsonSchema } from '../schema-files.ts';

const COMPONENTS = '#/components/schemas/';

/** Component name of a schema's local definition (`#/definitions/x` has no meaning once moved into the document). */
export const definitionName = (schema: SchemaName, definition: string) => `${schema}_${definition}`;

// The parsed form of a header, which no body or header of the wire has: the document describes the header as text.
const NOT_ON_THE_WIRE: readonly SchemaName[] = ['RateLimitPolicyHeader'];

/** Every registry schema that describes a body, with its local definitions and discriminated branches hoisted beside it. */
export function componentSchemas(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const name of SCHEMA_NAMES.filter((n) => !NOT_ON_THE_WIRE.includes(n))) {
    const { $schema: _dialect, $id: _id, definitions, ...body } = loadSchema(name);
    out[name] = hoistBranches(rewrite(body, name) as JsonSchema, name, out);
    for (const [key, sub] of Object.entries((definitions ?? {}) as Record<string, unknown>)) {
      out[definitionName(name, key)] = rewrite(sub, name) as JsonSchema;
    }
  }
  return out;
}

/** A discriminator selects named schemas only: each inline `oneOf` branch becomes `<Name>_<value>`, listed in `mapping`. */
function hoistBranches(schema: JsonSchema, name: SchemaName, out: Record<string, JsonSchema>): JsonSchema {
  const discriminator = schema.discriminator as { propertyName: string } | undefined;
  if (!discriminator || !Array.isArray(schema.oneOf)) return schema;
  const mapping: Record<string, string> = {};
  const oneOf = (schema.oneOf as JsonSchema[]).map((branch) => {
    const value = ((branch.properties as Record<string, JsonSchema> | undefined)?.[discriminator.propertyName])?.const;
    if (typeof value !== 'string') throw new Error(`${name}: a oneOf branch has no const ${discriminator.propertyName}`);
    out[definitionName(name, value)] = branch;
    return { $ref: (mapping[value] = COMPONENTS + definitionName(name, value)) };
  });
  return { ...schema, discriminator: { ...discriminator, mapping }, oneOf };
}

/** `$ref: "Name"`, `"Name#/properties/x"` and `"#/definitions/x"` become pointers into `components.schemas`. */
function rewrite(node: unknown, owner: SchemaName): unknown {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, owner));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') out.$ref = pointer(value, owner);
    // enum and const hold data, never schemas
    else out[key] = key === 'enum' || key === 'const' ? value : rewrite(value, owner);
  }
  return out;
}

function pointer(ref: string, owner: SchemaName): string {
  const local = /^#\/definitions\/([^/]+)$/.exec(ref);
  if (local) return COMPONENTS + definitionName(owner, local[1]!);
  const [name, fragment = ''] = ref.split('#');
  if (!(SCHEMA_NAMES as readonly string[]).includes(name!)) throw new Error(`${owner}: $ref ${JSON.stringify(ref)} names no registry schema`);
  return COMPONENTS + name + fragment;
}
