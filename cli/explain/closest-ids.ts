// Suggestions for a mistyped rule ID: the known IDs at the smallest edit distance.
import { RULE_IDS } from '../../requirements/index.ts';

/** Levenshtein distance: insertions, deletions and substitutions each cost 1. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Up to `count` known IDs closest to `input`, nearest first (catalog order among equals). */
export function closestRuleIds(input: string, count = 3): string[] {
  return RULE_IDS.map((id, order) => ({ id, order, distance: editDistance(input.toUpperCase(), id) }))
    .sort((a, b) => a.distance - b.distance || a.order - b.order)
    .slice(0, count)
    .map((c) => c.id);
}
