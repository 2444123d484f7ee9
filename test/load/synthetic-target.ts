// A simulated token-bucket target for verdict unit tests: replays a plan's schedule instantly and deterministically,
// with knobs that break one rate-limit behaviour each.
import { TimelineRecorder } from '../../load/engine/recorder.ts';
import type { ScenarioPlan } from '../../load/scenarios/plan.ts';
import { ROUTES, type RouteName } from '../../load/scenarios/routes.ts';
import type { Timeline } from '../../load/timeline/format.ts';

export interface SimTarget {
  rps: Record<'trigger' | 'configuration' | 'global', number>;
  w: number;
  /** The trigger bucket really refills at rps·factor while its policy still declares rps. */
  triggerRefillFactor?: number;
  remainingNotDecremented?: boolean;
  noRetryAfter?: boolean;
  plainTextBody?: boolean;
  bulkCostsOne?: boolean;
  sharedBuckets?: boolean;
  /** Every n-th request is dropped by the "engine". */
  dropEvery?: number;
  /** A generator starved of CPU: what is scheduled in [fromMs, toMs) leaves at toMs, all at once. */
  stall?: { fromMs: number; toMs: number };
  /** A k6 starved of CPU: what is scheduled in [fromMs, toMs) is skipped silently (neither sent nor counted as dropped). */
  skip?: { fromMs: number; toMs: number };
  /** How long a request sent at `sentMs` takes to reach the target (a connection pool queueing, a proxy): sent on time, counted late. */
  arrivalDelayMs?: (sentMs: number) => number;
}

export function simulate(plan: ScenarioPlan, t: SimTarget): Timeline {
  const rec = new TimelineRecorder(plan, 100);
  const events: { at: number; route: RouteName }[] = [];
  for (const phase of plan.phases) {
    for (const s of phase.streams) for (let i = 0; i < s.count; i++) events.push({ at: s.startMs + (i * 1000) / s.rps, route: s.route });
  }
  events.sort((a, b) => a.at - b.at);
  const buckets = new Map<string, { tokens: number; last: number }>();
  let n = 0;
  const sendAt = (at: number) => (t.stall && at >= t.stall.fromMs && at < t.stall.toMs ? t.stall.toMs : at);
  const arrivals: { route: RouteName; scheduled: number; sent: number; at: number }[] = [];
  for (const e of events) {
    rec.scheduled(e.route, e.at);
    if (t.skip && e.at >= t.skip.fromMs && e.at < t.skip.toMs) continue;
    n += 1;
    if (t.dropEvery && n % t.dropEvery === 0) {
      rec.dropped(e.route, e.at);
      continue;
    }
    const sent = sendAt(e.at);
    rec.sent(e.route, e.at, sent);
    arrivals.push({ route: e.route, scheduled: e.at, sent, at: sent + (t.arrivalDelayMs?.(sent) ?? 0) });
  }
  // why: the target counts requests in the order they reach it
  arrivals.sort((a, b) => a.at - b.at);
  for (const { route, scheduled, sent, at } of arrivals) {
    const category = ROUTES[route].category;
    const key = t.sharedBuckets ? 'trigger' : category;
    const limit = t.rps[category] * t.w;
    const burst = Math.floor(limit * 1.1);
    const capacity = Math.floor(t.rps[key] * t.w * 1.1);
    const rate = t.rps[key] * (key === 'trigger' ? (t.triggerRefillFactor ?? 1) : 1);
    const b = buckets.get(key) ?? { tokens: capacity, last: at };
    b.tokens = Math.min(capacity, b.tokens + ((at - b.last) * rate) / 1000);
    b.last = Math.max(b.last, at);
    buckets.set(key, b);
    const cost = ROUTES[route].cost === 100 && !t.bulkCostsOne ? 100 : 1;
    const ok = b.tokens >= cost;
    if (ok) b.tokens -= cost;
    const headers: Record<string, string> = {
      'ratelimit-limit': String(limit),
      'ratelimit-remaining': String(t.remainingNotDecremented ? burst : Math.min(burst, Math.floor(b.tokens))),
      'ratelimit-reset': ok ? '0' : '1',
      'ratelimit-policy': `${limit};w=${t.w};burst=${burst};comment="token bucket";category="${category}";cost="${cost === 100 ? 'bulk' : 'single'}"`,
    };
    if (!ok && !t.noRetryAfter) headers['retry-after'] = '1';
    const body = ok ? undefined : t.plainTextBody ? 'Too Many Requests' : JSON.stringify({ statusCode: 429, timestamp: new Date(0).toISOString(), path: ROUTES[route].path, message: 'API rate limit exceeded' });
    rec.response(route, scheduled, sent, at + 2, ok ? 201 : 429, (name) => headers[name], body);
  }
  return rec.toTimeline('node', new Date(0), plan.durationMs);
}
