// Whether a bundle's load run measured what certification needs. RL-05 and the other rate-limit rules are judged
// by `conformance load`; a load run certifies only when it ran the full profile, every scenario whose checks can fail
// an over-generous limit (trigger-under-limit cannot: nothing it sends goes over the limit), to its end, against the
// run's own target — not from timelines recorded elsewhere. The load summary's verdicts must be the report's.
import type { FeatureSettings } from '../config/settings.ts';
import type { ConformanceReport } from '../report/conformance-report.ts';
import { declaredOff } from '../report/declared-off.ts';
import { sameBaseUrl } from '../report/load-target.ts';

/** The scenarios whose checks go over the limit (load/scenarios/: test/report/load-plan.test.ts keeps them in step). */
export const DECISIVE_LOAD_SCENARIOS = ['trigger-limit', 'headers-under-load', 'bulk-cost', 'category-isolation'] as const;

export interface LoadPlanSummary {
  engine?: unknown;
  /** The engine's version (the suite's for the built-in engine, k6's own); null when the load run did not record it. */
  engineVersion?: unknown;
  profile?: unknown;
  target?: { baseUrl?: unknown; fromTimelines?: unknown; embeddedReference?: unknown };
  interrupted?: unknown;
  verdicts?: unknown;
  scenarios?: { scenario?: unknown }[];
}

/** Why the load run in the bundle cannot back a certification (empty: it can, or no load ran). */
export function loadPlanReasons(summary: LoadPlanSummary | undefined, report: Pick<ConformanceReport, 'target'>): string[] {
  if (summary === undefined || typeof summary !== 'object' || summary === null) return [];
  const reasons: string[] = [];
  if (summary.profile !== 'full') reasons.push(`the load ran the ${String(summary.profile ?? 'unnamed')} profile; certification needs the full profile (\`conformance load --profile full\`)`);
  if (summary.interrupted) reasons.push('the load run was interrupted before its end');
  const measured = summary.target?.baseUrl;
  // why: each embedded reference listens on a port of its own (and is never a certification's target anyway)
  const sameTarget = (summary.target?.embeddedReference === true && report.target.embeddedReference) || (typeof measured === 'string' && sameBaseUrl(measured, report.target.baseUrl));
  if (summary.target?.fromTimelines) reasons.push('the load verdicts were judged from timelines recorded elsewhere (--from-timelines), not measured by this run against its target');
  else if (!sameTarget) reasons.push(`the load measured ${String(summary.target?.baseUrl ?? 'no named target')}, not the run's target ${report.target.baseUrl}`);
  const ran = new Set((Array.isArray(summary.scenarios) ? summary.scenarios : []).map((s) => s?.scenario));
  const missing = DECISIVE_LOAD_SCENARIOS.filter((s) => !ran.has(s));
  if (missing.length > 0) reasons.push(`the load left out ${missing.join(', ')}: the scenario(s) whose checks can fail a limit more generous than announced`);
  return reasons;
}

/** The load summary's verdicts against the report's: each RL rule the load judged must have its verdict and tests there. */
export function loadVerdictMismatches(summary: LoadPlanSummary | undefined, report: Pick<ConformanceReport, 'requirements' | 'target'>): string[] {
  if (!summary || !Array.isArray(summary.verdicts)) return [];
  const rules = new Map(report.requirements.map((r) => [r.id, r]));
  const out: string[] = [];
  for (const v of summary.verdicts as { id?: unknown; verdict?: unknown; tests?: { name?: unknown; status?: unknown }[] }[]) {
    const rule = rules.get(String(v?.id));
    if (!rule) continue;
    const declared = (report.target?.declared ?? {}) as Partial<FeatureSettings>;
    const off = rule.verdict === 'not-applicable' && declaredOff({ id: rule.id, area: rule.id.split('-')[0]! }, declared) !== undefined;
    const testsThere = (Array.isArray(v.tests) ? v.tests : []).every((t) => rule.tests.some((r) => r.name === t?.name && r.status === t?.status));
    if (!off && (!testsThere || (v.verdict === 'fail' && rule.verdict !== 'fail'))) out.push(`${rule.id}: the load summary says ${String(v.verdict)}, the report ${rule.verdict}`);
  }
  return out;
}
