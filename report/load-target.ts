// One target per report: whether a load run (load.json, or a bundle's load summary) measured the target its report
// is about. Both documents are untrusted input here, so every field is read defensively.

export interface TargetFacts {
  baseUrl?: string;
  embeddedReference?: boolean;
  faults?: string[];
  /** The trigger limit the target declares (report) or the load judged at (load.json `expectedRps`). */
  triggerRps?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** What a conformance.json says about its target. */
export function reportTargetFacts(report: unknown): TargetFacts {
  const t = isObject(report) && isObject(report.target) ? report.target : {};
  const declared = isObject(t.declared) ? t.declared : {};
  return factsOf(t, declared.triggerRps);
}

/** What a load.json (or a bundle's load summary) says about the target it measured. */
export function loadTargetFacts(load: unknown): TargetFacts {
  const d = isObject(load) ? load : {};
  return factsOf(isObject(d.target) ? d.target : {}, d.expectedRps);
}

function factsOf(t: Record<string, unknown>, rps: unknown): TargetFacts {
  return {
    ...(text(t.baseUrl) !== undefined ? { baseUrl: text(t.baseUrl) } : {}),
    ...(typeof t.embeddedReference === 'boolean' ? { embeddedReference: t.embeddedReference } : {}),
    ...(Array.isArray(t.faults) ? { faults: t.faults.filter((f): f is string => typeof f === 'string') } : {}),
    ...(typeof rps === 'number' && Number.isFinite(rps) ? { triggerRps: rps } : {}),
  };
}

/** A base URL compared as the API sees it: origin and path, without a trailing slash. */
export function sameBaseUrl(a: string, b: string): boolean {
  const norm = (u: string) => {
    try {
      const url = new URL(u);
      return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    } catch {
      return u;
    }
  };
  return norm(a) === norm(b);
}

export function describeTarget(t: TargetFacts): string {
  if (t.embeddedReference) return `the embedded reference${t.faults?.length ? ` with faults ${t.faults.join(', ')}` : ''}`;
  if (t.baseUrl === undefined) return 'a target it does not name';
  return `${t.baseUrl}${t.triggerRps !== undefined ? ` at ${t.triggerRps}/s` : ''}`;
}

/**
 * Why the load run's target is not the report's, or undefined when it is: embedded or not, the faults switched on, and
 * for a target of one's own its base URL and the trigger limit (each embedded reference is started with the limit its
 * profile needs, so the limit is not compared there).
 */
export function loadTargetMismatch(report: TargetFacts, load: TargetFacts): string | undefined {
  const both = `the report is about ${describeTarget(report)}, the load run measured ${describeTarget(load)}`;
  if (load.embeddedReference === undefined && load.baseUrl === undefined) return `${both}: a load run that names no target cannot join a report`;
  if (Boolean(report.embeddedReference) !== Boolean(load.embeddedReference)) return both;
  if (report.embeddedReference) {
    const a = [...(report.faults ?? [])].sort().join(',');
    const b = [...(load.faults ?? [])].sort().join(',');
    return a === b ? undefined : `${both} (other faults)`;
  }
  if (report.baseUrl === undefined || load.baseUrl === undefined || !sameBaseUrl(report.baseUrl, load.baseUrl)) return `${both} (another base URL)`;
  if (report.triggerRps !== undefined && load.triggerRps !== report.triggerRps) return `${both} (another declared trigger limit)`;
  return undefined;
}

/** verify-bundle's check: the bundle's load summary measured the target its report is about. */
export function loadSummaryTargetCheck(report: unknown, loadSummary: unknown): { ok: boolean; what: string } {
  const mismatch = loadTargetMismatch(reportTargetFacts(report), loadTargetFacts(loadSummary));
  return mismatch === undefined
    ? { ok: true, what: `the load summary measured the report's target (${describeTarget(reportTargetFacts(report))})` }
    : { ok: false, what: `the load summary measured the report's target (${mismatch})` };
}
