// What a correct target honestly gets on a busy machine or a slow path: a not-verified whose reason names the road or
// the run's pace ("… not a verdict …", "the network: …", a run stopped by timeouts.runMs), never the target. A harness test that wants such a rule to
// pass asserts the rest and then skips, saying why; any other not-verified, and any failure, still fails it.

const ROAD_OR_PACE = /not a verdict|^the network\b|\(timeouts\.runMs\)/;

interface JudgedRule {
  id: string;
  verdict: string;
  tests: { status: string; message?: string }[];
}

/** Why `rule` went unverified, when every unverified test of it names the road or the pace; undefined otherwise. */
function unverifiedForRoadOrPace(rule: JudgedRule | undefined): string | undefined {
  if (rule?.verdict !== 'not-verified') return undefined;
  const unverified = rule.tests.filter((t) => t.status === 'not-verified');
  if (unverified.length === 0 || !unverified.every((t) => ROAD_OR_PACE.test(t.message ?? ''))) return undefined;
  return `${rule.id}: ${unverified[0]!.message}`;
}

/** The rules a run judged, apart from those left unverified for the road or the pace (with the first such reason). */
export function apartFromRoadOrPace<R extends JudgedRule>(rules: R[]): { judged: R[]; unjudged?: string } {
  const reasons = rules.map(unverifiedForRoadOrPace);
  const unjudged = reasons.find((r) => r !== undefined);
  return { judged: rules.filter((_, i) => reasons[i] === undefined), ...(unjudged ? { unjudged: `this machine or path was too slow for a verdict on ${unjudged.slice(0, 400)}` } : {}) };
}
