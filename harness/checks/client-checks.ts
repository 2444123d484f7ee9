// CLIENT-02/03 on every exchange of the run: the official SDK's own models read the answers of the eight operations.
// Success answers are held to the deployed contract (also where the spec says "not shown"); 4xx/500 answers to the
// SDK's error types. Each missing or mistyped field is named by its model path.
import type { RuleId } from '../../requirements/index.ts';
import { SUCCESS_MODELS, errorModel, parseWithModel, type ModelRef } from '../client/sdk-models.ts';
import { operationOf } from '../operations.ts';
import { issueLines } from '../client/zod-issues.ts';
import type { Exchange } from '../http/exchange.ts';
import { unwrap } from '../http/api-client.ts';
import { responseJson, type PassiveCheck } from './passive-checks.ts';
import { CLIENT_CHECKED_RULES, type ClientCheckedRule } from './client-check-rules.ts';

const SHOWN_ISSUES = 5;

const answered = (e: Exchange) => e.status !== undefined && !e.truncated && e.responseBody !== undefined && e.responseBody !== '';

/** The model the SDK reads this answer with, or undefined when CLIENT-02/03 say nothing about it. */
function modelFor(rule: ClientCheckedRule, e: Exchange): ModelRef | undefined {
  const op = operationOf(e.method, e.url);
  if (!op || !answered(e)) return undefined;
  const status = e.status!;
  if (rule === 'CLIENT-02') return status >= 200 && status < 300 ? SUCCESS_MODELS[op.template]?.model : undefined;
  return (status >= 400 && status < 500) || status === 500 ? errorModel(op.template, status, responseJson(e)) : undefined;
}

function clientCheck(rule: ClientCheckedRule): PassiveCheck {
  return {
    rule: rule satisfies RuleId,
    applies: (e) => modelFor(rule, e) !== undefined,
    check: (e) => {
      const model = modelFor(rule, e)!;
      const body = responseJson(e);
      if (body === undefined) return `${e.status} answer is not JSON: the official client cannot read it as ${model.name}`;
      // success bodies are unwrapped as the SDK's hook does; error models also see the exchange, as the SDK passes it
      const error = rule === 'CLIENT-02' ? parseWithModel(model, unwrap(body)) : parseWithModel(model, body, { url: e.url, status: e.status!, text: e.responseBody! });
      if (!error) return undefined;
      const lines = issueLines(error);
      const more = lines.length > SHOWN_ISSUES ? `; … (${lines.length - SHOWN_ISSUES} more)` : '';
      return `${e.status} answer cannot be read by the official client as ${model.name}${model.array ? '[]' : ''}: ${lines.slice(0, SHOWN_ISSUES).join('; ')}${more}`;
    },
  };
}

export const CLIENT_CHECKS: readonly PassiveCheck[] = CLIENT_CHECKED_RULES.map(clientCheck);
