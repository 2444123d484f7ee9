// Every response of the spec's operations is validated through the route map, and the result counts as
// evidence for the rule that promises that shape (e.g. a 201 of POST /v2/workflows → WF-01).
import type { RuleId } from '../../requirements/index.ts';
import { checkResponse } from '../../schemas/response-check.ts';
import type { ResponseSchema } from '../../schemas/route-map.ts';
import { formatViolation } from '../../schemas/violations.ts';
import type { Exchange } from '../http/exchange.ts';
import { PASSIVE_CHECKS, responseJson, type PassiveCheck } from './passive-checks.ts';
import { ERROR_ID_ONLY_ON_500 } from './error-id.ts';

/** Route-map operation (its `source`) → the rule whose text requires that response shape. */
export const RULE_OF_OPERATION: Record<string, RuleId> = {
  'create workflow': 'WF-01',
  'update agent integration': 'AGI-01',
  'delete topic subscriptions': 'TS-01',
  'layout preview': 'LP-01',
  'list environment variables': 'EV-01',
  'list environments': 'ENV-01',
  'update subscriber preferences': 'PREF-01',
  'trigger event': 'TRIG-01',
};

/** The rule whose text requires the schema the route map chose for a response with this status. */
export function ruleOfResponseSchema(resolution: ResponseSchema, status: number): RuleId | undefined {
  if (resolution.source !== 'generic error') return resolution.schema === 'PayloadValidationErrorDto' ? 'TRIG-06' : RULE_OF_OPERATION[resolution.source];
  if (status === 422) return 'ERR-02';
  if (status === 429) return 'RL-04';
  if (status === 503) return undefined;
  return 'ERR-01';
}

function ruleFor(e: Exchange, body: unknown): RuleId | undefined {
  const resolution = checkResponse({ method: e.method, path: new URL(e.url).pathname, status: e.status ?? 0, body }).resolution;
  return resolution && ruleOfResponseSchema(resolution, e.status ?? 0);
}

function parsed(e: Exchange): { ok: true; body: unknown } | { ok: false } {
  if (e.truncated || !e.responseBody) return { ok: false };
  const body = responseJson(e);
  return body === undefined ? { ok: false } : { ok: true, body };
}

export function schemaCheck(rule: RuleId): PassiveCheck {
  return {
    rule,
    applies: (e) => {
      const p = parsed(e);
      return p.ok && ruleFor(e, p.body) === rule;
    },
    check: (e) => {
      const p = parsed(e);
      if (!p.ok) return undefined;
      const result = checkResponse({ method: e.method, path: new URL(e.url).pathname, status: e.status ?? 0, body: p.body });
      if (result.valid) return undefined;
      const label = result.resolution ? `${result.resolution.schema}${result.resolution.array ? '[]' : ''}` : 'schema';
      return `${e.status} body does not match ${label}: ${result.violations.slice(0, 3).map((v) => formatViolation(label, v)).join('; ')}`;
    },
  };
}

export const SCHEMA_CHECKED_RULES: readonly RuleId[] = [...new Set<RuleId>([...Object.values(RULE_OF_OPERATION), 'TRIG-06', 'ERR-01', 'ERR-02', 'RL-04'])];

/** Every check that holds for every exchange: the passive checks and the schema check of each rule that promises a shape. */
export const EVERY_EXCHANGE_CHECKS: readonly PassiveCheck[] = [...PASSIVE_CHECKS, ERROR_ID_ONLY_ON_500, ...SCHEMA_CHECKED_RULES.map(schemaCheck)];
