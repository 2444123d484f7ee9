// The checks on every fuzz answer: no 5xx, a status the spec lists, a valid request never refused except where a
// rule says so, an invalid one never accepted, and every check the suite applies to all traffic (error body shape,
// success body schema, errorId on 500, Content-Type, rate-limit headers). Each problem names its rule and level.
import { requirement, type RuleId } from '../requirements/index.ts';
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
}

/** The statuses the spec lists for workflow creation, which "apply to the other operations" too. */
export const LISTED_ERROR_STATUSES: readonly number[] = [400, 401, 403, 404, 405, 409, 413, 414, 415, 422, 429, 500, 503];

export type Mode = 'valid' | 'invalid';

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
  const add = (rule: RuleId | FuzzTag, level: Level | undefined, message: string) => level && !problems.some((p) => p.rule === rule) && problems.push({ rule, level, message });
  const what = mode === 'valid' ? 'a valid request' : `an invalid request (${describeBroken(broken)})`;

  // 503 is the listed overload answer (RL-10 checks its Retry-After); every other 5xx is a crash
  if (status >= 500 && status !== 503) {
    if (mode === 'valid') add(target.rule, 'error', `${status} on ${what}`);
    else add('FUZZ-5XX', 'error', `${status} on ${what}`);
  }
  if (!LISTED_ERROR_STATUSES.includes(status) && !target.success.includes(status)) {
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
  for (const check of EVERY_EXCHANGE_CHECKS) {
    if (!check.applies(res.exchange, features)) continue;
    const problem = check.check(res.exchange);
    if (problem) add(check.rule, levelOf(check.rule), problem);
  }
  return problems;
}

export function describeBroken(broken: Broken | undefined): string {
  if (!broken) return 'unknown';
  const where = broken.pointer === '' ? 'the body' : broken.pointer;
  return broken.violation === 'required' ? `${where} missing` : `${where} breaks ${broken.violation}`;
}

/** Findings of one kind are one finding: the rule and the status class. */
export function signature(problem: Problem, status: number): string {
  return `${problem.rule} ${Math.floor(status / 100)}xx`;
}

