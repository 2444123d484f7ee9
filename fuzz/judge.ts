// The checks on every fuzz answer: no 5xx, a status the spec lists, a valid request never refused except where a
// rule says so, an invalid one never accepted, and every check the suite applies to all traffic (error body shape,
// success body schema, errorId on 500, Content-Type, rate-limit headers). Each problem names its rule and level.
import { requirement, type RuleId } from '../requirements/index.ts';
import { allowProblem } from '../harness/checks/allow-header.ts';
import { EVERY_EXCHANGE_CHECKS } from '../harness/checks/schema-checks.ts';
import type { FeatureSettings } from '../config/settings.ts';
import type { ApiResponse } from '../harness/http/api-client.ts';
import type { Broken } from './generate/invalid.ts';
import type { FuzzTarget, SentRequest } from './targets.ts';

/** Tags for what no rule names: a server error on an invalid request, or a status nobody expects. */
export type FuzzTag = 'FUZZ-5XX' | 'FUZZ-STATUS';
export type Level = 'error' | 'warning';

export interface Problem {
  rule: RuleId | FuzzTag;
  level: Level;
  message: string;
  /** Tells problems of one rule apart when they are different defects (the fields a CLIENT-04 refusal names). */
  key?: string;
}

/** The statuses the spec lists for workflow creation, which "apply to the other operations" too. */
export const LISTED_ERROR_STATUSES: readonly number[] = [400, 401, 403, 404, 405, 409, 413, 414, 415, 422, 429, 500, 503];

/** valid/invalid: from the project's request schemas; sdk: from the official client's request model; methods: every other method on the path. */
export type Mode = 'valid' | 'invalid' | 'sdk' | 'methods';

export interface Answer {
  target: FuzzTarget;
  mode: Mode;
  sent: SentRequest;
  broken?: Broken;
  res: ApiResponse;
  features: FeatureSettings;
}

const levelOf = (rule: RuleId): Level | undefined => ({ MUST: 'error', SHOULD: 'warning' } as const)[requirement(rule).level as 'MUST' | 'SHOULD'];

export function judge({ target, mode, sent, broken, res, features }: Answer): Problem[] {
  const status = res.status;
  const problems: Problem[] = [];
  // one problem per rule: the passive check and the schema check of ERR-01 see the same broken body
  const add = (rule: RuleId | FuzzTag, level: Level | undefined, message: string, key?: string) => level && !problems.some((p) => p.rule === rule) && problems.push({ rule, level, message, ...(key ? { key } : {}) });
  const what = describeRequest(mode, broken);

  // 503 is the listed overload answer (RL-10 checks its Retry-After); every other 5xx is a crash
  if (status >= 500 && status !== 503) {
    if (mode === 'valid' || mode === 'sdk') add(target.rule, 'error', `${status} on ${what}`);
    else add('FUZZ-5XX', 'error', `${status} on ${what}`);
  }
  if (mode === 'sdk' && status >= 400 && status < 500 && status !== 429 && !target.excused4xx?.(res, sent)) {
    const fields = namedFields(res, sent.body);
    // one finding per field the target refuses, wherever in a list it stands
    const key = fields.map((f) => f.replace(/\[\d+\]|\.\d+(?=\.|$)/g, '[]')).sort()[0];
    if (fields.length > 0) add('CLIENT-04', levelOf('CLIENT-04'), `${status} names ${fields.join(', ')} for ${what}`, key);
  }
  if (mode === 'methods') {
    const refused = sent.method;
    if (![404, 405, 429, 503].includes(status)) add('ERR-04', levelOf('ERR-04'), `${status} to ${refused}, which ${target.operation.template} does not define: 405 (or 404) with the common error body`);
    const allow = allowProblem(status, res.headers, refused, target.operation.method);
    if (allow) add('ERR-04', levelOf('ERR-04'), allow);
  } else if (!LISTED_ERROR_STATUSES.includes(status) && !target.success.includes(status)) {
    if (status >= 200 && status < 300) add(target.rule, levelOf(target.rule), `${status} is not the operation's success status (${target.success.join(' or ')})`);
    else add('FUZZ-STATUS', 'warning', `${status} is not a status the spec lists for ${target.operation.method} ${target.operation.template}`);
  }
  if (mode === 'valid' && status >= 400 && status < 500 && status !== 429 && !target.excused4xx?.(res, sent)) {
    add(target.rule, levelOf(target.rule), `${status} on ${what}; no rule lets the operation refuse it`);
  }
  if (mode === 'invalid' && status >= 200 && status < 300) {
    const rule = broken && target.rejections?.find((r) => r.pointer.test(broken.pointer) && r.violations.includes(broken.violation))?.rule;
    if (rule) add(rule, levelOf(rule), `${status}: ${what} was accepted; ${rule} says it is rejected`);
    else add('FUZZ-STATUS', 'warning', `${status}: ${what} was accepted (the request schema does not allow it)`);
  }
  const misleading = status === 422 ? misleadingFieldError(res, sent.body) : undefined;
  if (misleading) add('CLIENT-03', levelOf('CLIENT-03'), misleading.message, misleading.field.replace(/\[\d+\]/g, '[]'));
  for (const check of EVERY_EXCHANGE_CHECKS) {
    if (!check.applies(res.exchange, features)) continue;
    const problem = check.check(res.exchange);
    if (problem) add(check.rule, levelOf(check.rule), problem);
  }
  return problems;
}

export function describeRequest(mode: Mode, broken: Broken | undefined): string {
  if (mode === 'sdk') return "a request the official client's request model allows";
  if (mode === 'methods') return 'a method the path does not define';
  return mode === 'valid' ? 'a valid request' : `an invalid request (${describeBroken(broken)})`;
}

/** The fields a 4xx blames: the keys of a 422's `errors`, or the body's field names its `message` mentions. */
export function namedFields(res: ApiResponse, body: unknown): string[] {
  const json = res.json as { errors?: unknown; message?: unknown } | undefined;
  if (json && typeof json.errors === 'object' && json.errors !== null && !Array.isArray(json.errors)) return Object.keys(json.errors);
  const message = json ? [json.message].flat().filter((m) => typeof m === 'string').join(' ') : '';
  if (!message) return [];
  return [...fieldNames(body)].filter((name) => new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(message));
}

function fieldNames(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => fieldNames(v, out));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.length > 1) out.add(k);
      fieldNames(v, out);
    }
  }
  return out;
}

// a bare claim of type ("must be a string"), not one that goes on to say more ("must be an object with …")
const TYPE_CLAIM = /\bmust be an? (string|number|boolean|object|array)\s*[.;]?\s*$/i;

/**
 * A field error that says the wrong thing about the value it names (CLIENT-03: the client must see the field error the
 * target meant): "must be a string" of a value that is a string. The value is the one the error echoes, else the sent one.
 */
export function misleadingFieldError(res: ApiResponse, body: unknown): { field: string; message: string } | undefined {
  const errors = (res.json as { errors?: unknown } | undefined)?.errors;
  if (errors === null || typeof errors !== 'object' || Array.isArray(errors)) return undefined;
  for (const [field, entry] of Object.entries(errors as Record<string, { messages?: unknown; value?: unknown }>)) {
    const value = entry && typeof entry === 'object' && 'value' in entry ? entry.value : valueAt(body, field);
    if (value === undefined) continue;
    for (const text of [entry?.messages].flat().filter((m): m is string => typeof m === 'string')) {
      const claimed = TYPE_CLAIM.exec(text)?.[1]?.toLowerCase();
      // "each value in X must be a string" said of the list X itself speaks of its items: wrong only if every item is one
      const ofItems = /^each value in\b/i.test(text) && !/(\[\d+\]|\.\d+)$/.test(field);
      const holds = (v: unknown) => claimed === jsonType(v);
      const wrong = claimed !== undefined && (ofItems ? Array.isArray(value) && value.length > 0 && value.every(holds) : holds(value));
      if (wrong) return { field, message: `the field error of ${field} says "${text}" of ${JSON.stringify(value).slice(0, 60)}, which is a ${claimed}: it does not say what is wrong with the value` };
    }
  }
  return undefined;
}

const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** The value at a field path as error maps write it: `to[0].topicKey`, `steps.1.name`. */
function valueAt(body: unknown, field: string): unknown {
  let node = body;
  for (const part of field.split(/\.|\[(\d+)\]/).filter((p) => p !== undefined && p !== '')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

export function describeBroken(broken: Broken | undefined): string {
  if (!broken) return 'unknown';
  const where = broken.pointer === '' ? 'the body' : broken.pointer;
  return broken.violation === 'required' ? `${where} missing` : `${where} breaks ${broken.violation}`;
}

/** Findings of one kind are one finding: the rule and the status class. */
export function signature(problem: Problem, status: number): string {
  return `${problem.rule} ${Math.floor(status / 100)}xx${problem.key ? ` ${problem.key}` : ''}`;
}

