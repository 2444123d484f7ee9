// The JSON documents `--json` prints: what a script needs to decide, without parsing text (the files hold the rest).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BundleVerification } from '../certify/certify-bundle.ts';
import type { ConformanceReport } from '../report/conformance-report.ts';
import { gateVerdict } from '../report/gate.ts';

export function runDocument(report: ConformanceReport, exitCode: number, reportFile: string, bundle?: string): unknown {
  const gate = gateVerdict(report);
  return {
    command: 'run',
    exitCode,
    verdict: report.summary.verdict,
    ...(report.summary.error ? { error: report.summary.error } : {}),
    interrupted: report.summary.interrupted,
    ...(gate ? { gate: { passed: gate.passed, line: gate.line, ...report.expectations } } : {}),
    target: { baseUrl: report.target.baseUrl, embeddedReference: report.target.embeddedReference, declared: report.target.declared },
    counts: report.summary.counts,
    tests: report.summary.tests,
    failed: report.requirements.filter((r) => r.verdict === 'fail').map((r) => ({ id: r.id, level: r.level, text: r.text })),
    warned: report.requirements.filter((r) => r.verdict === 'warn').map((r) => ({ id: r.id, level: r.level, text: r.text })),
    unverifiedMust: report.summary.unverifiedMust,
    certification: report.certification ? { grade: report.certification.certificationGrade, reasons: report.certification.reasons.map((r) => r.text) } : undefined,
    rules: report.requirements.map((r) => ({ id: r.id, level: r.level, verdict: r.verdict })),
    errors: report.errors,
    reportFile,
    ...(bundle ? { bundle } : {}),
  };
}

const CLAIM_CHARS = 500;
/** A bundle's strings are untrusted: bounded (JSON.stringify escapes control characters). */
const bounded = (s: unknown) => (typeof s === 'string' ? s.slice(0, CLAIM_CHARS) : s);

/** The bundle's claims are marked verified only when its signature verified and every check held. */
export function verifyBundleDocument(result: BundleVerification, file: string, exitCode: number): unknown {
  const r = result.report;
  const verified = result.status === 'certified' || (result.status !== 'invalid' && result.attestation.signatureVerified);
  return {
    command: 'verify-bundle',
    exitCode,
    file,
    status: result.status,
    signature: { signed: result.attestation.signed, checked: result.attestation.signatureChecked ?? false, verified: result.attestation.signatureVerified, ...(result.attestation.signer ? { signer: bounded(result.attestation.signer) } : {}), ...(result.attestation.claimedSigner ? { claimedSigner: bounded(result.attestation.claimedSigner) } : {}) },
    checks: result.checks.map((c) => ({ ok: c.ok, what: bounded(c.what) })),
    notCertifiedBecause: result.notCertifiedBecause.map(bounded),
    ...(r ? { claims: { verified, verdict: bounded(r.summary?.verdict), target: bounded(r.target?.baseUrl), suiteVersion: bounded(r.suite?.version), specVersion: bounded(r.spec?.version), startedAt: bounded(r.startedAt) } } : {}),
  };
}

/** What `load --json` prints: load.json without its timelines (they stay in the file), or only the exit when none was written. */
export function loadDocument(reportDir: string, exitCode: number, sinceMs: number): unknown {
  const file = join(reportDir, 'load.json');
  // an earlier run's load.json is not this one's
  if (!existsSync(file) || statSync(file).mtimeMs < sinceMs) return { command: 'load', exitCode, loadReport: null };
  const { timelines, ...rest } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> & { timelines?: unknown };
  void timelines;
  return { command: 'load', exitCode, ...rest, loadReport: file };
}
