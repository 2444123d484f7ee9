// A timeline cut short by a Ctrl-C: only the phases that ran to their end stay in its plan, so only they are judged.
import type { Timeline } from './format.ts';

/** The timeline as far as it went: only phases that ended by `atMs` stay in its plan. */
export function truncateTimeline(tl: Timeline, atMs: number): Timeline {
  const ended = tl.plan.phases.filter((p) => p.startMs + p.durationMs <= atMs);
  const cut = tl.plan.phases.filter((p) => !ended.includes(p));
  return { ...tl, plan: { ...tl.plan, phases: ended }, buckets: tl.buckets.filter((b) => b.t < atMs), interrupted: { atMs, phases: cut } };
}
