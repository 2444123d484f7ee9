// Real-time load tests on a shared machine: a run whose generator fell behind measured nothing, so the test says so
// (skipped with the reason) instead of passing or failing on it — after checking that no rule failed for it.
import { expect } from 'vitest';
import { notAsPlanned } from '../../load/verdict/generator-lag.ts';
import type { LoadRuleVerdict } from '../../load/verdict/judge.ts';

/** The first reason a check gave for a starved generator (behind its schedule, or dropping at its in-flight cap), if any. */
export function starvedReason(verdicts: Iterable<LoadRuleVerdict | undefined>): string | undefined {
  for (const v of verdicts) for (const t of v?.tests ?? []) if (t.status === 'not-verified' && notAsPlanned(t.message)) return t.message;
  return undefined;
}

/** Skips the test, naming the lag, when `rules` were left unjudged by a starved generator; a rule that still failed fails the test. */
export function skipIfStarved(verdicts: Record<string, LoadRuleVerdict>, rules: string[], skip: (note?: string) => void, failureIsExpected = false): void {
  const starved = rules.filter((id) => verdicts[id]?.verdict === 'not-verified' && starvedReason([verdicts[id]]) !== undefined);
  if (starved.length === 0) return;
  if (!failureIsExpected) for (const id of Object.keys(verdicts)) expect(`${id} ${verdicts[id]!.verdict}`).not.toBe(`${id} fail`);
  skip(`${starved.join(', ')} not measurable on this machine now: ${starvedReason(starved.map((id) => verdicts[id]))}`);
}
