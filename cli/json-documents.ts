// The JSON documents `--json` prints: what a script needs to decide, without parsing text (the files hold the rest).
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
