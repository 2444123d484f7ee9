// What must differ between two implementations is replaced by a placeholder before comparing: server-made ids,
// timestamps, API keys, slugs with random parts, transaction ids — also where they appear inside other strings
// (an activity-feed link, an error path). Everything else is compared as it is.

export const PLACEHOLDER = { id: '<id>', timestamp: '<timestamp>', key: '<key>', slug: '<slug>' } as const;

/** Keys whose values are made by the server: `_id`, `_environmentId`-style references, transaction and error ids. */
const ID_KEY = /^(_id|_[A-Za-z]+Id|transactionId|errorId)$/;
const SECRET_KEY = /^(key|hash)$/;
const SLUG_KEY = /^slug$/;
/** ISO-8601 date-time, as the wire conventions write timestamps. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;
/** Shorter values are not searched for inside other strings (a 2-letter id would match everywhere). */
const MIN_EMBEDDED = 6;

export interface NormalizeOptions {
  /** Further places (JSON-pointer patterns, `*` for any key or index) whose values are made by the server. */
  volatile?: readonly string[];
  /** Places whose arrays are sets: compared in a canonical order. */
  unordered?: readonly string[];
}

type Kind = keyof typeof PLACEHOLDER;

export function normalize(body: unknown, options: NormalizeOptions = {}): unknown {
  const found = new Map<string, Kind>();
  collect(body, '', options, found);
  // longest first, so an id that contains another is replaced whole
  const embedded = [...found.entries()].filter(([v]) => v.length >= MIN_EMBEDDED).sort((a, b) => b[0].length - a[0].length);
  return rebuild(body, '', options, found, embedded);
}

function kindAt(key: string, pointer: string, options: NormalizeOptions): Kind | undefined {
  if (ID_KEY.test(key)) return 'id';
  if (SECRET_KEY.test(key) && /\/apiKeys\/\d+\/[^/]+$/.test(pointer)) return 'key';
  if (SLUG_KEY.test(key)) return 'slug';
  if (options.volatile?.some((p) => matches(p, pointer))) return 'id';
  return undefined;
}

function collect(node: unknown, pointer: string, options: NormalizeOptions, found: Map<string, Kind>): void {
  if (Array.isArray(node)) return node.forEach((v, i) => collect(v, `${pointer}/${i}`, options, found));
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    const at = `${pointer}/${key}`;
    const kind = kindAt(key, at, options);
    if (kind && typeof value === 'string') found.set(value, kind);
    else collect(value, at, options, found);
  }
}

function rebuild(node: unknown, pointer: string, options: NormalizeOptions, found: Map<string, Kind>, embedded: [string, Kind][]): unknown {
  if (typeof node === 'string') {
    if (TIMESTAMP.test(node) && !Number.isNaN(Date.parse(node))) return PLACEHOLDER.timestamp;
    const whole = found.get(node);
    if (whole) return PLACEHOLDER[whole];
    let out = node;
    for (const [value, kind] of embedded) out = out.split(value).join(PLACEHOLDER[kind]);
    return out;
  }
  if (Array.isArray(node)) {
    const items = node.map((v, i) => rebuild(v, `${pointer}/${i}`, options, found, embedded));
    return options.unordered?.some((p) => matches(p, pointer)) ? items.sort((a, b) => canonical(a).localeCompare(canonical(b))) : items;
  }
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, rebuild(v, `${pointer}/${k}`, options, found, embedded)]));
}

function matches(pattern: string, pointer: string): boolean {
  const p = pattern.split('/');
  const q = pointer.split('/');
  return p.length === q.length && p.every((seg, i) => seg === '*' || seg === q[i]);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

export const ABSENT = '(absent)';

export interface Difference {
  operation: string;
  /** JSON pointer into the (unwrapped) answer body; `(status)` for the status code, `(setup)` when provisioning differed. */
  path: string;
  reference: unknown;
  candidate: unknown;
}

/** Every place where two normalized values differ; a side without the place shows `(absent)`. */
export function differences(operation: string, reference: unknown, candidate: unknown, path = ''): Difference[] {
  if (canonical(reference) === canonical(candidate)) return [];
  const bothObjects = isObject(reference) && isObject(candidate);
  const bothArrays = Array.isArray(reference) && Array.isArray(candidate);
  if (!bothObjects && !bothArrays) return [{ operation, path: path || '/', reference, candidate }];
  const keys = bothArrays
    ? Array.from({ length: Math.max((reference as unknown[]).length, (candidate as unknown[]).length) }, (_, i) => String(i))
    : [...new Set([...Object.keys(reference as object), ...Object.keys(candidate as object)])];
  return keys.flatMap((k) => {
    const r = (reference as Record<string, unknown>)[k];
    const c = (candidate as Record<string, unknown>)[k];
    const at = `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!has(reference, k)) return [{ operation, path: at, reference: ABSENT, candidate: c }];
    if (!has(candidate, k)) return [{ operation, path: at, reference: r, candidate: ABSENT }];
    return differences(operation, r, c, at);
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (container: unknown, key: string) => Object.prototype.hasOwnProperty.call(container, key);
