// Binding generated bodies to the run's state: fields that name something on the target (the workflow to trigger,
// the integration to link, subscribers a trigger creates) are replaced by provisioned or run-prefixed names. Only
// string values are bound, and never at the place an invalid body is broken, so binding cannot repair a body.

/** Applies `rewrite` to each value at `pattern` (a JSON pointer whose `*` segments match any key or index). */
export function rewriteAt(body: unknown, pattern: string, rewrite: (value: string) => unknown, skip?: string): unknown {
  const segments = pattern === '' ? [] : pattern.slice(1).split('/');
  return walk(body, segments, '', rewrite, skip);
}

function walk(node: unknown, rest: string[], at: string, rewrite: (value: string) => unknown, skip: string | undefined): unknown {
  if (skip !== undefined && (at === skip || at.startsWith(`${skip}/`))) return node;
  if (rest.length === 0) return typeof node === 'string' ? rewrite(node) : node;
  const [head, ...tail] = rest as [string, ...string[]];
  if (Array.isArray(node)) {
    return node.map((item, i) => (head === '*' || head === String(i) ? walk(item, tail, `${at}/${i}`, rewrite, skip) : item));
  }
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = { ...(node as Record<string, unknown>) };
  for (const key of Object.keys(out)) {
    if (head === '*' || head === key) out[key] = walk(out[key], tail, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, rewrite, skip);
  }
  return out;
}

/** FNV-1a: a stable small hash, so a generated value always binds to the same choice (same seed, same requests). */
export function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** One of `options`, chosen by the generated value. */
export function pick<T>(generated: string, options: readonly T[]): T {
  return options[stableHash(generated) % options.length]!;
}
