// Whether the load generator kept to its schedule over an interval a rule is judged on. A generator starved of CPU
// sends late, in bursts, or not at all; the target then sees another load than planned, and its answers there say
// nothing about its limit: the checks of that interval are not-verified, never pass or fail.
//
// The bound. A token bucket that throttles accepts, over a window of W seconds, r·W tokens plus whatever it had saved
// at the start minus whatever it still holds at the end. A generator that owes the target at most B tokens at any
// moment (requests overdue, not yet sent, or dropped) lets the bucket save at most B more than the plan would, so the
// accepted count moves by at most B. With B ≤ 2 % of the tokens the window should carry, the rate the verdict reads
// moves by at most 2 % — well inside RL-05's ±5 %, which leaves 3 % for bucket edges and the target's own jitter.
// The same bound holds the other way: a generator that kept up has offered what the plan offers, so a target that
// throttles early or late shows it.
import type { RouteName } from '../scenarios/routes.ts';
import { fmt, GENERATOR_BEHIND, NO_TIMELINE_VERDICT, STARVED_HINT, type CheckContext } from './context.ts';
import { ANSWERS_LATE, answerSpreadS } from './late-answers.ts';

/** What the generator may owe the target at any moment, as a share of the tokens the interval should carry. */
export const MAX_BACKLOG_SHARE = 0.02;
/** What was owed up to this long before an interval and never sent is taken as lost before it (k6 skips silently). */
const LOOKBACK_S = 1;

export interface Backlog {
  /** The most tokens overdue (scheduled, not yet sent) at any bucket edge of the interval, plus those dropped in it. */
  tokens: number;
  requests: number;
  /** When the most were overdue (s from the start). */
  atS: number;
  dropped: number;
  /** The latest send in the interval, ms after its schedule (built-in engine only). */
  lagMaxMs?: number;
}

/** The generator's worst backlog over buckets [from, to) of `routes`, in tokens (or requests when not `byCost`). */
export function backlogOf(ctx: CheckContext, routes: RouteName[], from: number, to: number, byCost = true): Backlog {
  const { tl } = ctx;
  let pendingTokens = 0;
  let pendingRequests = 0;
  // why: k6 skips ticks without counting them, so what was never sent stays owed; only what is owed since shortly before the interval counts
  const since = Math.max(0, from - Math.round(LOOKBACK_S / ctx.bucketS));
  let base = { tokens: Infinity, requests: Infinity };
  let worst = { tokens: 0, requests: 0, at: from };
  let dropped = 0;
  let droppedTokens = 0;
  let lagMaxMs: number | undefined;
  if (since === 0) base = { tokens: 0, requests: 0 };
  for (let i = 0; i < Math.min(to, tl.buckets.length); i++) {
    for (const r of routes) {
      const b = tl.buckets[i]!.routes[r];
      if (!b) continue;
      const cost = byCost ? (tl.routes[r]?.cost ?? 1) : 1;
      // why: scheduled and dropped count by schedule, sent by send time, so their difference is what is overdue
      const owed = b.scheduled - b.sent - b.dropped;
      pendingRequests += owed;
      pendingTokens += owed * cost;
      if (i >= from) {
        dropped += b.dropped;
        droppedTokens += b.dropped * cost;
        if (b.lagMaxMs !== undefined) lagMaxMs = Math.max(lagMaxMs ?? 0, b.lagMaxMs);
      }
    }
    if (i + 1 >= since && i + 1 <= from) base = { tokens: Math.min(base.tokens, pendingTokens), requests: Math.min(base.requests, pendingRequests) };
    if (i + 1 >= from && pendingTokens - base.tokens > worst.tokens) worst = { tokens: pendingTokens - base.tokens, requests: pendingRequests - base.requests, at: i + 1 };
  }
  return { tokens: worst.tokens + droppedTokens, requests: worst.requests, atS: worst.at * ctx.bucketS, dropped, ...(lagMaxMs !== undefined ? { lagMaxMs } : {}) };
}

/**
 * Why buckets [from, to) cannot be judged, or undefined when the generator kept up: `expectedTokens` is what the
 * interval should carry (the documented rate times its length for a throttled window, the offered load otherwise).
 */
export function generatorShortfall(ctx: CheckContext, routes: RouteName[], from: number, to: number, expectedTokens: number, byCost = true): string | undefined {
  const b = backlogOf(ctx, routes, from, to, byCost);
  const allowed = Math.max(1, expectedTokens * MAX_BACKLOG_SHARE);
  if (b.tokens <= allowed) return undefined;
  const interval = `[${fmt(from * ctx.bucketS, 2)} s, ${fmt(to * ctx.bucketS, 2)} s)`;
  const what = [
    b.requests > 0 ? `${b.requests} request(s) overdue at ${fmt(b.atS, 2)} s` : '',
    b.dropped > 0 ? `${b.dropped} dropped` : '',
    b.lagMaxMs !== undefined ? `sends up to ${fmt(b.lagMaxMs, 0)} ms late` : '',
  ].filter(Boolean).join(', ');
  const unit = byCost ? 'tokens' : 'requests';
  return `${GENERATOR_BEHIND} in ${interval} (${what}: ${fmt(b.tokens)} ${unit} owed, over the ${fmt(allowed)} allowed — ${MAX_BACKLOG_SHARE * 100}% of the ${fmt(expectedTokens)} the interval should carry): the target's answers there cannot be judged (${STARVED_HINT})`;
}

/** Whether a test's reason says the load did not reach the target as planned (a starved generator, late answers, a timeline too lossy to judge). */
export function notAsPlanned(message: string | undefined): boolean {
  return message !== undefined && (message.startsWith(GENERATOR_BEHIND) || message.startsWith(ANSWERS_LATE) || message.includes(`: ${NO_TIMELINE_VERDICT}`));
}

/** The reason a check is not judged because late answers could explain what it saw. */
export function lateReason(ctx: CheckContext, from: number, to: number, what: string): string {
  return `${ANSWERS_LATE} in [${fmt(from * ctx.bucketS, 2)} s, ${fmt(to * ctx.bucketS, 2)} s): ${what} (${STARVED_HINT})`;
}

/**
 * Why buckets [from, to) cannot be judged because their answer times varied: the target counted each request between
 * its send and its answer, so a spread of d s may move d s of the interval's traffic across its edges or bunch it. Up to
 * `allowedS` (what the check's own slack absorbs, at least MAX_BACKLOG_SHARE of the interval) it is judged.
 */
export function answerShortfall(ctx: CheckContext, routes: RouteName[], from: number, to: number, allowedS = 0): string | undefined {
  const lengthS = (to - from) * ctx.bucketS;
  const spreadS = answerSpreadS(ctx, routes, from, to);
  const allowed = Math.max(allowedS, lengthS * MAX_BACKLOG_SHARE);
  if (lengthS <= 0 || spreadS <= allowed) return undefined;
  return lateReason(ctx, from, to, `answer times varied by ${fmt(spreadS * 1000, 0)} ms, over the ${fmt(allowed * 1000, 0)} ms the check absorbs: requests may have reached the target bunched or spread, so its answers there cannot be judged`);
}

/** `ctx` with the interval's shortfall (the generator behind its schedule) as its reason to be not-verified (an earlier reason wins). */
export function judgedOn(ctx: CheckContext, routes: RouteName[], from: number, to: number, expectedTokens: number, byCost = true): CheckContext {
  if (ctx.unreliable !== undefined) return ctx;
  const why = generatorShortfall(ctx, routes, from, to, expectedTokens, byCost);
  return why === undefined ? ctx : { ...ctx, unreliable: why };
}
