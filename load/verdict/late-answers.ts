// When the target counted a request: somewhere between its send and its answer. Answers that come late — a target or
// proxy that queues, or a generator starved of CPU whose requests wait in its own connection pool (and an embedded
// reference beside it, starved too) — blur which interval a request counted in: a correct bucket then seems to accept
// more in an interval than its limit allows, or to throttle traffic below it. A check fails only where that blur, as
// measured on the answers themselves, cannot explain what it saw; where it can, the check is not-verified.
import type { RouteName } from '../scenarios/routes.ts';
import type { CheckContext } from './context.ts';

/** How every reason of late answers starts (a rule with such a test is never `pass`: see judge.ts). */
export const ANSWERS_LATE = 'the answers came too late to tell when the target counted the requests';

/** The longest answer (ms from send) to a request of `route` sent in bucket `i`, or undefined when none was answered. */
function latestAnswerMs(ctx: CheckContext, route: RouteName, i: number): number | undefined {
  const b = ctx.tl.buckets[i]?.routes[route];
  if (!b || b.accepted + b.throttled + b.other === 0) return undefined;
  // why: timelines without per-bucket answer times (older k6 summaries) fall back to the route's worst latency
  return b.latency?.max ?? ctx.tl.routes[route]?.latencyMs?.max ?? 0;
}

/** Per bucket, the latest the target may have acted on a request sent in it, in s from the start (−∞ when nothing was answered). */
export function actedBy(ctx: CheckContext, routes: RouteName[]): number[] {
  return ctx.tl.buckets.map((_, i) => {
    let latest = -Infinity;
    for (const r of routes) {
      const ms = latestAnswerMs(ctx, r, i);
      if (ms !== undefined) latest = Math.max(latest, (i + 1) * ctx.bucketS + ms / 1000);
    }
    return latest;
  });
}

/** How far past the end of buckets [from, to) the target may have acted on requests sent in them, in s (≥ 0). */
export function reachS(ctx: CheckContext, routes: RouteName[], from: number, to: number): number {
  const by = actedBy(ctx, routes);
  let latest = -Infinity;
  for (let i = Math.max(0, from); i < Math.min(to, by.length); i++) latest = Math.max(latest, by[i]!);
  return Math.max(0, latest - to * ctx.bucketS);
}

/** The longest answer to a request of `routes` sent in buckets [from, to), in s. */
export function longestAnswerS(ctx: CheckContext, routes: RouteName[], from: number, to: number): number {
  let ms = 0;
  for (let i = Math.max(0, from); i < Math.min(to, ctx.tl.buckets.length); i++) for (const r of routes) ms = Math.max(ms, latestAnswerMs(ctx, r, i) ?? 0);
  return ms / 1000;
}

/** How much the answer times of `routes` over buckets [from, to) varied (longest − shortest), in s; 0 for timelines without them. */
export function answerSpreadS(ctx: CheckContext, routes: RouteName[], from: number, to: number): number {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = Math.max(0, from); i < Math.min(to, ctx.tl.buckets.length); i++) {
    for (const r of routes) {
      const b = ctx.tl.buckets[i]!.routes[r];
      // why: a timeline without per-bucket answer times (older k6 summaries) shows no spread; the backlog guard still holds
      if (!b?.latency || b.accepted + b.throttled + b.other === 0) continue;
      hi = Math.max(hi, b.latency.max);
      lo = Math.min(lo, b.latency.min);
    }
  }
  return hi > lo ? (hi - lo) / 1000 : 0;
}
