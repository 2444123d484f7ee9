// `verify-bundle`'s whole judgement: the signature first, then the signed subjects against the files, then the
// bundle's own consistency — and from those, whether the bundle certifies anything. Only a bundle whose signature
// was checked against the verifier's key or identity, of a certification-grade run with a conformant verdict, does.
import { ATTESTATION_FILE } from './attestation.ts';
import { JsonBoundError, parseBoundedJson } from './bounded-json.ts';
import { BUNDLE_FILES } from './bundle.ts';
import { loadPlanReasons, loadVerdictMismatches, type LoadPlanSummary } from './load-plan.ts';
import { reportShapeProblems } from './report-shape.ts';
import type { ConformanceReport } from '../report/conformance-report.ts';
import { verifyAttestation, type AttestationOutcome, type TrustPolicy } from './verify-attestation.ts';
import { verifyBundle, type Check } from './verify-bundle.ts';

export type BundleStatus = 'certified' | 'not-certified' | 'invalid';

export interface BundleVerification {
  status: BundleStatus;
  checks: Check[];
  attestation: AttestationOutcome;
  /** Why an intact bundle certifies nothing (empty when certified or invalid). */
  notCertifiedBecause: string[];
  report?: ConformanceReport;
  /** The load run the bundle carries (load-summary.json), when there was one. */
  load?: LoadPlanSummary;
}

/** The suite release the verifier trusts: the digest published with it (--suite-digest), or the verifier's own release. */
export interface TrustedRelease {
  version?: string;
  digest: string;
  source: string;
}

export function certifyBundle(files: ReadonlyMap<string, Buffer>, policy: TrustPolicy, release?: TrustedRelease): BundleVerification {
  try {
    return judge(files, policy, release);
  } catch (error) {
    // why: whatever a bundle holds, its verification ends in a verdict, never in an internal error
    return { status: 'invalid', checks: [{ ok: false, what: `the bundle can be checked (${(error as Error).message.split('\n')[0]!.slice(0, 200)})` }], attestation: { signed: files.has(ATTESTATION_FILE), signatureVerified: false }, notCertifiedBecause: [] };
  }
}

function judge(files: ReadonlyMap<string, Buffer>, policy: TrustPolicy, release?: TrustedRelease): BundleVerification {
  const refused = boundsRefused(files);
  if (refused) return { status: 'invalid', checks: [refused], attestation: { signed: files.has(ATTESTATION_FILE), signatureVerified: false }, notCertifiedBecause: [] };
  const checks: Check[] = [];
  const attestation = verifyAttestation(files, policy, (ok, what) => checks.push({ ok, what }));
  checks.push(...verifyBundle(files as Map<string, Buffer>));
  const report = parseReport(files);
  if (report && files.has(BUNDLE_FILES.loadSummary)) {
    const mismatches = loadVerdictMismatches(parseLoad(files), report);
    checks.push({ ok: mismatches.length === 0, what: `the load summary's verdicts are the report's${mismatches.length ? ` (not ${mismatches.join('; ')})` : ''}` });
  }
  const releaseChecked = report ? checkRelease(report, release, (ok, what) => checks.push({ ok, what })) : false;
  if (checks.some((c) => !c.ok)) return { status: 'invalid', checks, attestation, notCertifiedBecause: [], ...(report ? { report } : {}) };
  const why: string[] = [];
  if (!attestation.signed) why.push('unsigned: nothing proves who produced it');
  else if (!attestation.signatureVerified) why.push('its signature was not checked: give --public-key FILE, or --certificate-identity and --certificate-oidc-issuer');
  if (report?.certification?.certificationGrade && !releaseChecked) {
    why.push(`the suite's release is not checked: the run names ${report.suite?.version} with files ${report.suite?.digest}; give --suite-digest with the digest published for that release, or verify with the released suite itself`);
  }
  const load = parseLoad(files);
  // why: the grade holds the load plan's reasons (checked above to be what loadPlanReasons gives): they are said in full
  if (report) for (const reason of loadPlanReasons(load, report)) why.push(reason);
  const codes = report?.certification?.reasons.map((r) => r.code).filter((code) => code !== 'load-plan');
  if (!report?.certification?.certificationGrade && codes?.length !== 0) why.push(`the run is not certification-grade (${codes?.join(', ') ?? 'not assessed'})`);
  if (report?.summary.verdict !== 'conformant') why.push(`the verdict is ${report?.summary.verdict}`);
  return { status: why.length === 0 ? 'certified' : 'not-certified', checks, attestation, notCertifiedBecause: why, ...(report ? { report } : {}), ...(load ? { load } : {}) };
}

/** A run that claims a released suite must name the trusted release's digest; false when there is nothing to check it against. */
function checkRelease(report: ConformanceReport, release: TrustedRelease | undefined, check: (ok: boolean, what: string) => void): boolean {
  if (!report.suite?.release || !release) return false;
  if (release.version !== undefined && release.version !== report.suite.version) return false;
  const ok = report.suite.digest === release.digest && report.suite.release.digest === release.digest;
  check(ok, `the suite's files are release ${report.suite.version} as the verifier trusts it (${release.digest}, ${release.source})${ok ? '' : `: the run names ${report.suite.digest}`}`);
  return ok;
}

function parseLoad(files: ReadonlyMap<string, Buffer>): LoadPlanSummary | undefined {
  const content = files.get(BUNDLE_FILES.loadSummary);
  if (!content) return undefined;
  try {
    return parseBoundedJson(content) as LoadPlanSummary;
  } catch {
    return undefined;
  }
}

function parseReport(files: ReadonlyMap<string, Buffer>): ConformanceReport | undefined {
  try {
    return parseBoundedJson(files.get(BUNDLE_FILES.report)!) as ConformanceReport;
  } catch {
    return undefined;
  }
}

/**
 * Bounds checked before any other work: every JSON file within its depth, conformance.json of the shape the checks
 * read (rule and test counts within what the catalog and a run hold). The first failure, or undefined.
 */
function boundsRefused(files: ReadonlyMap<string, Buffer>): Check | undefined {
  for (const [name, content] of files) {
    if (!name.endsWith('.json')) continue;
    try {
      parseBoundedJson(content);
    } catch (error) {
      if (error instanceof JsonBoundError) return { ok: false, what: `${name} is JSON within the verifier's bounds (${error.message})` };
    }
  }
  const report = parseReport(files);
  const problems = report === undefined ? [] : reportShapeProblems(report);
  return problems.length > 0 ? { ok: false, what: `${BUNDLE_FILES.report} has the shape of a report (${problems.join('; ')})` } : undefined;
}
