// RL-03 and RL-04 under load: Remaining reflects each request's cost; every 429 is well-formed.
import type { RuleTest } from '../../report/verdicts.ts';
import type { RouteName } from '../scenarios/routes.ts';
import { fmt, policyOf, routesOf, test, type CheckContext } from './context.ts';

/** After an accepted request Remaining ≤ burst − cost; a 429 means fewer than `cost` tokens were left. */
export function remainingFallsByCost(ctx: CheckContext): RuleTest[] {
  return routesOf(ctx.tl).map((route) => remainingOfRoute(ctx, route));
}

function remainingOfRoute(ctx: CheckContext, route: RouteName): RuleTest {
  const s = ctx.tl.routes[route]!;
  const title = `RateLimit-Remaining on ${route} falls by its cost ${s.cost}`;
  const p = policyOf(ctx.tl, s.category);
  if ('error' in p) return test(ctx, 'RL-03', title, 'not-verified', p.error);
  const responses = Object.values(s.statuses).reduce((a, b) => a + b, 0);
  if (s.remainingMissing === responses) return test(ctx, 'RL-03', title, 'not-verified', `none of ${responses} responses carried an integer RateLimit-Remaining (RL-01/RL-02)`);
  const ceiling = p.policy.burst - s.cost;
  const problems: string[] = [];
  if (s.remainingAccepted && s.remainingAccepted.max > ceiling) {
    problems.push(`an accepted ${route} request reported RateLimit-Remaining ${s.remainingAccepted.max}; with burst ${p.policy.burst} and cost ${s.cost} it can be at most ${ceiling}`);
  }
  if (s.remainingThrottled && s.remainingThrottled.max >= s.cost) {
    problems.push(`a 429 on ${route} reported RateLimit-Remaining ${s.remainingThrottled.max}, enough for a request of cost ${s.cost}`);
  }
  if (s.remainingMissing > 0) problems.push(`${s.remainingMissing} of ${responses} responses lacked an integer RateLimit-Remaining`);
  const evidence = [
    `policy: ${p.header}`,
    `Remaining on 2xx: ${s.remainingAccepted ? `${s.remainingAccepted.min}–${s.remainingAccepted.max}` : 'none'}; on 429: ${s.remainingThrottled ? `${s.remainingThrottled.min}–${s.remainingThrottled.max}` : 'none'}`,
    `statuses: ${JSON.stringify(s.statuses)}`,
  ];
  return problems.length === 0
    ? test(ctx, 'RL-03', title, 'passed', `Remaining ≤ ${ceiling} after every accepted request, < ${s.cost} on every 429`, evidence)
    : test(ctx, 'RL-03', title, 'failed', problems.join('; '), evidence);
}

/** Every 429 carries Retry-After (non-negative integer seconds) and the rate-limit body. */
export function throttledWellFormed(ctx: CheckContext): RuleTest[] {
  const title = 'every 429 carries Retry-After and the "API rate limit exceeded" body';
  let throttled = 0;
  let missing = 0;
  let invalid = 0;
  let malformed = 0;
  const examples: string[] = [];
  for (const route of routesOf(ctx.tl)) {
    const s = ctx.tl.routes[route]!;
    throttled += s.statuses['429'] ?? 0;
    missing += s.retryAfterMissing;
    invalid += s.retryAfterInvalid;
    malformed += s.bodyMalformed;
    for (const e of s.examples.filter((x) => x.status === 429)) examples.push(`${route} 429 headers ${JSON.stringify(e.headers)} body ${e.body}`);
  }
  if (throttled === 0) return [test(ctx, 'RL-04', title, 'not-verified', 'no request was throttled')];
  const problems: string[] = [];
  if (missing > 0) problems.push(`${missing} of ${throttled} 429 responses had no Retry-After`);
  if (invalid > 0) problems.push(`${invalid} had a Retry-After that is not a non-negative integer`);
  if (malformed > 0) problems.push(`${malformed} had a body that is neither "API rate limit exceeded" nor a common error body with that message`);
  const evidence = [`${throttled} responses with 429`, ...examples.slice(0, 2)];
  return [
    problems.length === 0
      ? test(ctx, 'RL-04', title, 'passed', `${throttled} 429 responses, all with Retry-After and the rate-limit body`, evidence)
      : test(ctx, 'RL-04', title, 'failed', problems.join('; '), evidence),
  ];
}
