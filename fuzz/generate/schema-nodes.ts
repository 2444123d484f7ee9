// Reading the registry's JSON Schemas for generation: `$ref` resolution (by `$id` and JSON pointer),
// composition (`allOf` merged, `oneOf`/`anyOf` branches with their siblings) and the types a node admits.
import { isSchemaName } from '../../schemas/names.ts';
import { loadSchema, type JsonSchema } from '../../schemas/schema-files.ts';
import { valueAt } from '../../schemas/violations.ts';

/** A schema node and the document its local `#/…` references resolve against. */
export interface Node {
  schema: JsonSchema;
  root: JsonSchema;
}

const documents = new Map<string, JsonSchema>();

function documentNamed(id: string): JsonSchema {
  if (!isSchemaName(id)) throw new Error(`$ref to an unknown schema "${id}"`);
  let doc = documents.get(id);
  if (!doc) documents.set(id, (doc = loadSchema(id)));
  return doc;
}

/** The registry schema `name` as a node. */
export function schemaNode(name: string): Node {
  const root = documentNamed(name);
  return { schema: root, root };
}

/** Follows `$ref` until a node without one: `Name`, `Name#/pointer` or `#/pointer`. */
export function deref(node: Node): Node {
  let { schema, root } = node;
  for (let hops = 0; typeof schema.$ref === 'string'; hops++) {
    if (hops > 32) throw new Error(`$ref cycle at ${String(schema.$ref)}`);
    const [id, pointer = ''] = (schema.$ref as string).split('#');
    if (id) root = documentNamed(id);
    const target = valueAt(root, pointer);
    if (!target || typeof target !== 'object') throw new Error(`$ref ${String(schema.$ref)} names nothing`);
    schema = target as JsonSchema;
  }
  return { schema, root };
}

const COMPOSITION = ['oneOf', 'anyOf', 'allOf', 'discriminator'] as const;

/** `allOf` parts merged into one node (properties and required united; the later part wins a conflict). */
export function flatten(node: Node): Node {
  const n = deref(node);
  const parts = n.schema.allOf as JsonSchema[] | undefined;
  if (!parts) return n;
  const { allOf: _drop, ...rest } = n.schema;
  return parts.reduce<Node>((acc, part) => mergeNodes(acc, flatten({ schema: part, root: n.root })), { schema: rest, root: n.root });
}

function mergeNodes(a: Node, b: Node): Node {
  const schema: JsonSchema = { ...a.schema, ...b.schema };
  const props = { ...(a.schema.properties as object | undefined), ...(b.schema.properties as object | undefined) };
  if (Object.keys(props).length > 0) schema.properties = props;
  const required = [...new Set([...((a.schema.required as string[]) ?? []), ...((b.schema.required as string[]) ?? [])])];
  if (required.length > 0) schema.required = required;
  // a branch's own `#/…` references keep resolving in its document; the siblings carry no references
  return { schema, root: b.root };
}

/** The alternatives of a `oneOf`/`anyOf` node, each merged with the node's other keywords; undefined for plain nodes. */
export function alternatives(node: Node): Node[] | undefined {
  const n = flatten(node);
  const list = (n.schema.oneOf ?? n.schema.anyOf) as JsonSchema[] | undefined;
  if (!list) return undefined;
  const siblings = Object.fromEntries(Object.entries(n.schema).filter(([k]) => !(COMPOSITION as readonly string[]).includes(k)));
  return list.map((branch) => {
    const b = flatten({ schema: branch, root: n.root });
    return Object.keys(siblings).length === 0 ? b : mergeNodes({ schema: siblings, root: n.root }, b);
  });
}

export const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'] as const;
export type JsonType = (typeof JSON_TYPES)[number];

/** The JSON types a node names (`type` or the type of its `const`/`enum`); undefined when it names none. */
export function typesOf(schema: JsonSchema): JsonType[] | undefined {
  if (typeof schema.type === 'string') return [schema.type as JsonType];
  if (Array.isArray(schema.type)) return schema.type as JsonType[];
  return undefined;
}

/** The properties of an object node, with their nodes. */
export function propertiesOf(node: Node): [string, Node][] {
  const props = (node.schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(props).map(([k, s]) => [k, { schema: s, root: node.root }]);
}

/** The node every extra key's value must match, or undefined when extra keys are unconstrained or forbidden. */
export function additionalOf(node: Node): Node | undefined {
  const addl = node.schema.additionalProperties;
  return addl && typeof addl === 'object' ? { schema: addl as JsonSchema, root: node.root } : undefined;
}

/** An object node without declared properties or an `additionalProperties` schema: any keys, any values. */
export function isFreeForm(node: Node): boolean {
  return node.schema.properties === undefined && additionalOf(node) === undefined && node.schema.additionalProperties !== false;
}
