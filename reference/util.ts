// Small helpers shared by every module: ids, clocks, canonical JSON.
import { randomBytes } from 'node:crypto';

let counter = randomBytes(3).readUIntBE(0, 3);
const processPart = randomBytes(5).toString('hex');

/** A 24-hex-char id shaped like a MongoDB ObjectId (what the deployed service returns). */
export function objectId(): string {
  // why: cheap, unique, monotonic-ish ids without a crypto call per id
  counter = (counter + 1) & 0xffffff;
  const ts = Math.floor(Date.now() / 1000).toString(16).padStart(8, '0');
  return ts + processPart + counter.toString(16).padStart(6, '0');
}

export function shortId(length = 8): string {
  return randomBytes(Math.ceil(length / 2)).toString('hex').slice(0, length);
}

export function nowIso(): string {
  return new Date().toISOString();
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Stable JSON (sorted object keys) so equal bodies give equal idempotency fingerprints. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return '[' + value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',') + ']';
  if (isPlainObject(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined).sort();
    return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalJson(value[k])).join(',') + '}';
  }
  return JSON.stringify(value);
}

export const SLUG_PATTERN = /^[a-zA-Z0-9]+(?:[-_.][a-zA-Z0-9]+)*$/;

/** Turns a display name into a slug-pattern-conforming identifier. */
export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  return s.length > 0 ? s : 'step';
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
