// Field-level validators shared by route handlers (they add to a FieldErrors collector).
import type { FieldErrors } from './errors.ts';
import { isPlainObject } from './util.ts';

export function optString(errs: FieldErrors, obj: Record<string, unknown>, field: string, prefix = ''): string | undefined {
  const v = obj[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') {
    errs.add(prefix + field, `${field} must be a string`, v);
    return undefined;
  }
  return v;
}

export function reqString(errs: FieldErrors, obj: Record<string, unknown>, field: string, prefix = ''): string | undefined {
  const v = obj[field];
  if (v === undefined || v === null) {
    errs.add(prefix + field, `${field} should not be empty`, v ?? undefined);
    errs.add(prefix + field, `${field} must be a string`);
    return undefined;
  }
  if (typeof v !== 'string') {
    errs.add(prefix + field, `${field} must be a string`, v);
    return undefined;
  }
  if (v.length === 0) {
    errs.add(prefix + field, `${field} should not be empty`, v);
    return undefined;
  }
  return v;
}

export function optBoolean(errs: FieldErrors, obj: Record<string, unknown>, field: string, prefix = ''): boolean | undefined {
  const v = obj[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') {
    errs.add(prefix + field, `${field} must be a boolean value`, v);
    return undefined;
  }
  return v;
}

export function optObject(errs: FieldErrors, obj: Record<string, unknown>, field: string, prefix = ''): Record<string, unknown> | undefined {
  const v = obj[field];
  if (v === undefined) return undefined;
  if (!isPlainObject(v)) {
    errs.add(prefix + field, `${field} must be an object`, v);
    return undefined;
  }
  return v;
}

export function optEnum<T extends string>(errs: FieldErrors, obj: Record<string, unknown>, field: string, allowed: readonly T[], prefix = ''): T | undefined {
  const v = obj[field];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    errs.add(prefix + field, `${field} must be one of the following values: ${allowed.join(', ')}`, v);
    return undefined;
  }
  return v as T;
}

/** A `context` map: string keys to a string or an object (the two forms the request schemas allow). */
export function optContext(errs: FieldErrors, obj: Record<string, unknown>, field: string, prefix = ''): Record<string, unknown> | undefined {
  const map = optObject(errs, obj, field, prefix);
  if (!map) return undefined;
  for (const [key, value] of Object.entries(map)) {
    if (typeof value !== 'string' && !isPlainObject(value)) errs.add(`${prefix}${field}.${key}`, `${field} values must be a string or an object`, value);
  }
  return map;
}
