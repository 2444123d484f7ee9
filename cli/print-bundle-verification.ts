// What `verify-bundle` prints. The verifier's own facts come first (whether the signature was checked, and against
// whose key); the bundle's claims are printed as facts only when its signature verified and every check held,
// otherwise under "the bundle claims, unverified:". Every line goes through escapeTerminal: a bundle's strings
// cannot move the cursor, clear the screen or start a line of their own.
import type { BundleVerification } from '../certify/certify-bundle.ts';
import { escapeTerminal } from '../report/markup.ts';

export interface VerifierFacts {
  file: string;
  /** How the signature was to be checked: the --public-key file, the identity, or nothing. */
  trust: { kind: 'none' } | { kind: 'key'; file: string } | { kind: 'identity'; identity: string };
  now: Date;
}

export function printBundleVerification(result: BundleVerification, facts: VerifierFacts, write: (line: string) => void): void {
  const print = (line: string) => write(escapeTerminal(line));
  const a = result.attestation;
  const claimed = a.claimedSigner ? `; it names its signer as ${a.claimedSigner}` : '';
  if (!a.signed && !result.report && result.status === 'invalid') {
    // an unreadable archive: nothing is known about its signature
  } else if (!a.signed) print('NOT VERIFIED: the bundle is unsigned: nothing proves who produced it');
  else if (facts.trust.kind === 'none') print(`NOT VERIFIED: signature not checked (give --public-key FILE, or --certificate-identity, --certificate-oidc-issuer and --trusted-root)${claimed}`);
  else if (a.signatureVerified) print(`Signature: verified, ${a.signer}${facts.trust.kind === 'key' ? `, matching the given public key ${facts.trust.file}` : ''}`);
  else print(`Signature: does NOT verify with the given ${facts.trust.kind === 'key' ? `public key ${facts.trust.file}` : `identity ${facts.trust.identity}`}${claimed}`);

  const failed = result.checks.filter((c) => !c.ok);
  if (result.status === 'invalid') {
    for (const c of failed) print(`✗ ${c.what}`);
    print(`  (${result.checks.length - failed.length} other check(s) hold)`);
    printClaims(result, facts.now, print, 'The bundle claims, unverified:');
    print(`INVALID: ${failed.length} of ${result.checks.length} checks failed (${facts.file})`);
    return;
  }
  for (const c of result.checks) print(`✓ ${c.what}`);
  printClaims(result, facts.now, print, a.signatureVerified ? 'Signed statement (signature verified, every check holds):' : 'The bundle claims, unverified (signature not checked):');
  if (result.status === 'certified') print(`CERTIFIED: signed by ${a.signer}, certification-grade, conformant; ${result.checks.length} checks hold (${facts.file})`);
  else print(`NOT CERTIFIED: ${result.checks.length} checks hold, but ${result.notCertifiedBecause.join('; ')} (${facts.file})`);
}

/** Signer, run date, suite, target, verdict and certification grade, as conformance.json states them. */
function printClaims(result: BundleVerification, now: Date, print: (line: string) => void, heading: string): void {
  const report = result.report;
  if (!report?.summary || !report.target) return;
  const say = (line: string) => print(`  ${line}`);
  print('');
  print(heading);
  say(`Signed by:      ${signedBy(result.attestation)}`);
  say(`Run:            ${report.startedAt} → ${report.finishedAt}${age(report.finishedAt, now)}`);
  const reference = report.target.identifiesAsReference !== undefined ? ` (identifies itself as the embedded reference ${report.target.identifiesAsReference})` : '';
  say(`Target:         ${report.target.embeddedReference ? `embedded reference (${report.target.baseUrl})` : `${report.target.baseUrl}${reference}`}${report.target.faults?.length ? ` with fault(s) ${report.target.faults.join(', ')}` : ''}`);
  say(`Suite:          ${report.suite?.name} ${report.suite?.version}, ${suiteRelease(report)}, spec ${report.spec?.version}`);
  const unverified = report.summary.unverifiedMust?.length ?? 0;
  say(`Verdict:        ${report.summary.verdict}${unverified > 0 ? ` (${unverified} MUST rule(s) not verified)` : ''}`);
  const declared = report.target.declared;
  say(`Declared:       ${declared ? `idempotency ${declared.idempotency ? 'on' : 'off'}, rate limiting ${declared.rateLimiting ? 'on' : 'off'}, regional endpoint ${declared.regionalEndpoint === false ? 'none' : 'yes'}, trigger limit ${declared.triggerRps}/s` : 'nothing (a report of an older version)'}`);
  for (const note of report.certification?.declared ?? []) say(`  - ${note}`);
  say(`Load:           ${loadPlan(result.load)}`);
  const certification = report.certification;
  say(`Certification-grade: ${certification?.certificationGrade ? 'yes' : 'no'}`);
  for (const r of certification?.reasons ?? []) say(`  - ${r.text}`);
  print('');
}

/** Whether the run's files were its release, as the run measured them; whether the verifier matched that release is a check above. */
function suiteRelease(report: NonNullable<BundleVerification['report']>): string {
  const suite = report.suite;
  const files = `files ${suite?.digest ?? '(no digest)'}`;
  if (!suite?.release) return `${files}, no release manifest (not a release)`;
  return suite.release.digest === suite.digest && suite.release.version === suite.version ? `${files} = its release manifest` : `${files} ≠ its release manifest of ${suite.release.version} (${suite.release.digest})`;
}

/** What the load run was: engine, profile, scenarios, where its timelines came from, whether it ran to its end. */
function loadPlan(load: BundleVerification['load']): string {
  if (!load) return 'none (no load-summary.json: the rate-limit rules the load judges were not measured)';
  const scenarios = (Array.isArray(load.scenarios) ? load.scenarios : []).map((s) => String(s?.scenario)).join(', ') || 'no scenario';
  const source = load.target?.fromTimelines ? ', judged from recorded timelines (--from-timelines)' : '';
  const version = typeof load.engineVersion === 'string' ? load.engineVersion : '(version not recorded)';
  return `engine ${String(load.engine)} ${version}, profile ${String(load.profile ?? 'unnamed')}, scenarios ${scenarios}${source}${load.interrupted ? ', INTERRUPTED' : ''}`;
}

function signedBy(a: BundleVerification['attestation']): string {
  if (!a.signed) return 'nobody (unsigned)';
  if (a.signatureVerified) return a.signer!;
  const named = a.claimedSigner ? `${a.claimedSigner}, ` : '';
  return a.signatureChecked ? `${named}NOT the given key or identity: the signature does not verify` : `${named}not checked (no --public-key or --certificate-identity given)`;
}

/** How long ago the run finished: a replayed old bundle shows its age. */
function age(finishedAt: string, now: Date): string {
  const ms = now.getTime() - new Date(finishedAt).getTime();
  if (!Number.isFinite(ms)) return ' (not a date)';
  const days = Math.floor(ms / 86_400_000);
  return ms < 0 ? ' (in the future)' : days === 0 ? ' (today)' : ` (${days} day(s) ago)`;
}
