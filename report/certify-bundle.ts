// `verify-bundle`'s whole judgement: the signature first, then the signed subjects against the files, then the
// bundle's own consistency — and from those, whether the bundle certifies anything. Only a bundle whose signature
// was checked against the verifier's key or identity, of a certification-grade run with a conformant verdict, does.
import { BUNDLE_FILES } from './bundle.ts';
import type { ConformanceReport } from './conformance-report.ts';
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
}

export function certifyBundle(files: ReadonlyMap<string, Buffer>, policy: TrustPolicy): BundleVerification {
  const checks: Check[] = [];
  const attestation = verifyAttestation(files, policy, (ok, what) => checks.push({ ok, what }));
  checks.push(...verifyBundle(files as Map<string, Buffer>));
  const report = parseReport(files);
  if (checks.some((c) => !c.ok)) return { status: 'invalid', checks, attestation, notCertifiedBecause: [], ...(report ? { report } : {}) };
  const why: string[] = [];
  if (!attestation.signed) why.push('unsigned: nothing proves who produced it');
  else if (!attestation.signatureVerified) why.push('signed, but the signature was not checked: give --public-key FILE, or --certificate-identity and --certificate-oidc-issuer');
  if (!report?.certification?.certificationGrade) why.push(`the run is not certification-grade (${report?.certification?.reasons.map((r) => r.code).join(', ') ?? 'not assessed'})`);
  if (report?.summary.verdict !== 'conformant') why.push(`the verdict is ${report?.summary.verdict}`);
  return { status: why.length === 0 ? 'certified' : 'not-certified', checks, attestation, notCertifiedBecause: why, ...(report ? { report } : {}) };
}

function parseReport(files: ReadonlyMap<string, Buffer>): ConformanceReport | undefined {
  try {
    return JSON.parse(files.get(BUNDLE_FILES.report)!.toString('utf8')) as ConformanceReport;
  } catch {
    return undefined;
  }
}
