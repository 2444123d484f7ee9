// Negative requests of another kind: every method the interface does not define on an operation's path (ERR-04:
// 405 or 404 with the common error body, never 2xx or 5xx; a 405 names the path's methods in Allow). The methods
// the path does or may define (the spec, the provisioning calls, the deployed service) are never sent.
import { ExchangeFailed } from '../harness/http/api-client.ts';
import { toCurl, truncate } from '../harness/http/exchange.ts';
import type { TargetProfile } from '../harness/target-profile.ts';
import { judge } from './judge.ts';
import type { Finding, ModeCounts } from './mode-fuzzer.ts';
import type { FuzzContext, FuzzTarget, SentRequest } from './targets.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Methods each path has, or may have: the operation's own, the provisioning's (`GET` subscriptions…), the deployed service's. */
const DEFINED: Record<string, readonly string[]> = {
  '/v2/workflows': ['POST', 'GET'],
  '/v1/agents/{identifier}/integrations/{agentIntegrationId}': ['PATCH', 'GET', 'DELETE'],
  '/v2/topics/{topicKey}/subscriptions': ['DELETE', 'POST', 'GET'],
  '/v2/layouts/{layoutId}/preview': ['POST'],
  '/v1/environment-variables': ['GET', 'POST'],
  '/v1/environments': ['GET', 'POST'],
  '/v2/subscribers/{subscriberId}/preferences': ['PATCH', 'GET'],
  '/v1/events/trigger': ['POST'],
};

export function undefinedMethods(target: FuzzTarget): string[] {
  const defined = DEFINED[target.operation.template] ?? [target.operation.method];
  return METHODS.filter((m) => !defined.includes(m));
}

/** Sends each undefined method once (with the operation's sample body where one goes) and judges the answer. */
export async function fuzzOtherMethods(target: FuzzTarget, state: unknown, ctx: FuzzContext, profile: TargetProfile): Promise<{ counts: ModeCounts; findings: Finding[] }> {
  const counts: ModeCounts = { cases: 0, requests: 0, discarded: 0, shrinkRequests: 0, statuses: {}, findings: 0 };
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const method of undefinedMethods(target)) {
    const body = method === 'GET' || method === 'DELETE' ? undefined : target.operation.sampleBody?.(ctx.runPrefix);
    const sent = { method, path: target.path(state), ...(body !== undefined ? { body } : {}) } as SentRequest;
    counts.cases += 1;
    counts.requests += 1;
    try {
      const res = await ctx.api.request(method, sent.path, body !== undefined ? { body } : {});
      ctx.api.exchanges.length = 0;
      counts.statuses[res.status] = (counts.statuses[res.status] ?? 0) + 1;
      for (const problem of judge({ target, mode: 'methods', sent, res, features: profile.features })) {
        // one finding per rule and path: a router that forgets Allow forgets it for every method
        if (seen.has(problem.rule)) continue;
        seen.add(problem.rule);
        counts.findings += 1;
        findings.push({
          operation: target.id, mode: 'methods', rule: problem.rule, level: problem.level, message: problem.message, status: res.status,
          request: sent, response: { status: res.status, body: truncate(res.exchange.responseBody ?? '', 600) },
          reproducer: toCurl(res.exchange), replay: { seed: 0, path: method }, shrinks: 0, foundAfter: counts.cases - 1,
        });
      }
    } catch (error) {
      if (!(error instanceof ExchangeFailed)) throw error;
      // a connection refused stops the run (the caller says why); any other exchange failure is the answer
      if (error.exchange.errorKind === 'refused') throw error;
      ctx.api.exchanges.length = 0;
      counts.statuses.none = (counts.statuses.none ?? 0) + 1;
      counts.findings += 1;
      findings.push({
        operation: target.id, mode: 'methods', rule: 'FUZZ-5XX', level: 'error', message: `no answer to ${method}, which the path does not define: ${error.exchange.error}`, status: 0,
        request: sent, response: { status: 0, body: error.exchange.error ?? '' }, reproducer: toCurl(error.exchange), replay: { seed: 0, path: method }, shrinks: 0, foundAfter: counts.cases - 1,
      });
    }
  }
  return { counts, findings };
}
