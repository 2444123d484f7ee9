// Re-checks a certification bundle without trusting it: the manifest against every file, and the report's
// internal consistency — every rule of this suite's catalog exactly once, each verdict possible given its
// tests, the summary equal to what the verdicts give, the certification grade equal to what the report and the
// configuration give, provenance agreeing with the report. The signature is checked first (certify-bundle.ts).
import { isDeepStrictEqual } from 'node:util';
import { REQUIREMENTS, SPEC_VERSION } from '../requirements/index.ts';
import { ATTESTATION_FILE } from './attestation.ts';
import { parseBoundedJson } from './bounded-json.ts';
import { readBoundedTarGz } from './bounded-archive.ts';
import { REDACTED } from '../report/redacted-settings.ts';
import { BUNDLE_FILES, MANIFEST, sha256 } from './bundle.ts';
import { assessCertification, type CertificationRunOptions } from './certification.ts';
import type { LoadPlanSummary } from './load-plan.ts';
import { loadSummaryTargetCheck } from '../report/load-target.ts';
import { buildReport, reportInputOf, REPORT_FORMAT, REPORT_FORMAT_VERSION, type ConformanceReport } from '../report/conformance-report.ts';
import { junitXml } from '../report/junit.ts';
import { ruleCatalogDigest } from '../report/suite-release.ts';
import { decisiveGap, type RuleVerdict } from '../report/verdicts.ts';
import { declaredOff } from '../report/declared-off.ts';
import type { FeatureSettings } from '../config/settings.ts';

export interface Check {
  ok: boolean;
  what: string;
}

/** The bundle's files, read within the caps of bounded-archive.ts; throws BundleError naming what it refused. */
export function readBundle(file: string): Map<string, Buffer> {
  return readBoundedTarGz(file);
}

export { BundleError } from './bounded-archive.ts';

export function verifyBundle(files: Map<string, Buffer>): Check[] {
  const checks: Check[] = [];
  const check = (ok: boolean, what: string) => checks.push({ ok, what });

  const manifest = files.get(MANIFEST);
  check(manifest !== undefined, `${MANIFEST} is present`);
  if (manifest) {
    const listed = new Map<string, string>();
    for (const line of manifest.toString('utf8').split('\n').filter(Boolean)) {
      const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
      if (!m) {
        check(false, `${MANIFEST} line is well-formed: "${line.slice(0, 80)}"`);
        continue;
      }
      listed.set(m[2]!, m[1]!);
    }
    for (const [name, digest] of listed) {
      const content = files.get(name);
      check(content !== undefined && sha256(content) === digest, content === undefined ? `${name} (listed in ${MANIFEST}) is in the bundle` : `${name} matches its SHA-256`);
    }
    // why: the attestation signs the manifest's files, so it cannot be listed in the manifest itself
    for (const name of files.keys()) if (name !== MANIFEST && name !== ATTESTATION_FILE && !listed.has(name)) check(false, `${name} is listed in ${MANIFEST}`);
  }
  for (const name of [BUNDLE_FILES.report, BUNDLE_FILES.junit, BUNDLE_FILES.configuration, BUNDLE_FILES.provenance]) {
    check(files.has(name), `${name} is present`);
  }

  const report = parseJson<ConformanceReport>(files, BUNDLE_FILES.report, check);
  if (report) checkReport(report, check);
  const provenance = parseJson<{ suite?: { version?: string }; spec?: { version?: string } }>(files, BUNDLE_FILES.provenance, check);
  if (report && provenance) {
    check(provenance.spec?.version === report.spec?.version, `provenance and report name the same spec version (${provenance.spec?.version} / ${report.spec?.version})`);
    check(provenance.suite?.version === report.suite?.version, `provenance and report name the same suite version (${provenance.suite?.version} / ${report.suite?.version})`);
  }
  const configuration = parseJson<{ target?: Record<string, unknown>; run?: CertificationRunOptions }>(files, BUNDLE_FILES.configuration, check);
  if (configuration) {
    const keys = ['apiKey', 'secondaryApiKey', 'restrictedApiKey'].filter((k) => configuration.target?.[k] !== undefined);
    check(keys.every((k) => configuration.target?.[k] === REDACTED), `configuration.json carries no API key (${keys.length} redacted)`);
  }
  const loadSummary = parseJson<unknown>(files, BUNDLE_FILES.loadSummary, check);
  if (report && configuration) checkCertification(report, configuration.run ?? {}, loadSummary as LoadPlanSummary | undefined, check);
  if (report && loadSummary !== undefined) checks.push(loadSummaryTargetCheck(report, loadSummary));
  const junit = files.get(BUNDLE_FILES.junit)?.toString('utf8');
  if (junit !== undefined && report) checkJunit(junit, report, check);
  return checks;
}

function checkReport(report: ConformanceReport, check: (ok: boolean, what: string) => void): void {
  check(report.format === REPORT_FORMAT && report.formatVersion === REPORT_FORMAT_VERSION, `conformance.json is ${REPORT_FORMAT} v${REPORT_FORMAT_VERSION}`);
  check(report.spec?.version === SPEC_VERSION, `the report is for spec ${SPEC_VERSION}, the version this verifier knows (${report.spec?.version})`);
  check(report.spec?.catalogDigest === ruleCatalogDigest(), `the verdicts answer this verifier's rule catalog (${ruleCatalogDigest()})${report.spec?.catalogDigest === ruleCatalogDigest() ? '' : `, not ${report.spec?.catalogDigest ?? 'an unnamed one'}`}`);
  const rules = Array.isArray(report.requirements) ? report.requirements : [];
  // why: Maps and Sets, never a search per rule: the work stays linear in what the bundle holds
  const catalog = new Map(REQUIREMENTS.map((r) => [r.id as string, r]));
  const ids = rules.map((r) => r.id);
  const present = new Set(ids);
  const missing = REQUIREMENTS.filter((r) => !present.has(r.id)).map((r) => r.id);
  const extra = ids.filter((id) => !catalog.has(id));
  const seen = new Set<string>();
  const duplicates = ids.filter((id) => seen.has(id) || !seen.add(id));
  check(missing.length === 0, `every rule of the catalog is present${missing.length ? ` (missing ${missing.join(', ')})` : ` (${REQUIREMENTS.length})`}`);
  check(extra.length === 0 && duplicates.length === 0, `no unknown or repeated rule${extra.length + duplicates.length ? ` (${[...extra, ...duplicates].join(', ')})` : ''}`);
  const wrongLevel = rules.filter((r) => catalog.has(r.id) && catalog.get(r.id)!.level !== r.level).map((r) => r.id);
  check(wrongLevel.length === 0, `every rule has its catalog level${wrongLevel.length ? ` (not ${wrongLevel.join(', ')})` : ''}`);
  const declared = (report.target?.declared ?? {}) as Partial<FeatureSettings>;
  const impossible = rules.filter((r) => !verdictFits(r, declared, catalog.get(r.id)?.area ?? '')).map((r) => `${r.id}=${r.verdict}`);
  check(impossible.length === 0, `every verdict fits its tests${impossible.length ? ` (not ${impossible.join(', ')})` : ''}`);
  try {
    const rebuilt = buildReport(reportInputOf(report, rules));
    check(isDeepStrictEqual(rebuilt.summary, report.summary), `the summary matches the verdicts (${report.summary?.verdict})`);
    check(rebuilt.durationMs === report.durationMs, 'the duration matches the start and finish times');
  } catch (error) {
    check(false, `the summary can be recomputed (${(error as Error).message})`);
  }
}

/** junit.xml is written from conformance.json alone (junit.ts): the same report gives the same file, byte for byte. */
function checkJunit(junit: string, report: ConformanceReport, check: (ok: boolean, what: string) => void): void {
  let expected: string;
  try {
    expected = junitXml(report);
  } catch (error) {
    check(false, `junit.xml can be rebuilt from conformance.json (${(error as Error).message})`);
    return;
  }
  const failures = (xml: string) => /<testsuites[^>]* failures="(\d+)"/.exec(xml)?.[1] ?? '?';
  check(junit === expected, `junit.xml is what conformance.json gives${junit === expected ? '' : ` (it differs: ${failures(junit)} failure(s) in junit.xml, ${failures(expected)} from the report)`}`);
}

function checkCertification(report: ConformanceReport, run: CertificationRunOptions, load: LoadPlanSummary | undefined, check: (ok: boolean, what: string) => void): void {
  try {
    const expected = assessCertification(report, run, load);
    const grade = (c: typeof expected | undefined) => (!c ? 'none' : c.certificationGrade ? 'certification-grade' : `not certification-grade: ${c.reasons.map((r) => r.code).join(', ')}`);
    const same = isDeepStrictEqual(report.certification, expected);
    check(same, `the certification grade is what the report and configuration give (${same ? grade(expected) : `stated ${grade(report.certification)}, recomputed ${grade(expected)}`})`);
  } catch (error) {
    check(false, `the certification grade can be recomputed (${(error as Error).message})`);
  }
}

/** not-applicable needs the target's declaration to take the rule out; a pass needs a passing test, no failure and a passed decisive test when the rule has any; fail needs a failed MUST-level test; warn some failed test. */
function verdictFits(rule: RuleVerdict, declared: Partial<FeatureSettings>, area: string): boolean {
  const tests = Array.isArray(rule.tests) ? rule.tests : [];
  const failed = tests.filter((t) => t.status === 'failed');
  switch (rule.verdict) {
    case 'pass':
      return failed.length === 0 && tests.some((t) => t.status === 'passed') && !decisiveGap(tests);
    case 'fail':
      return rule.level === 'MUST' && failed.some((t) => t.level !== 'SHOULD');
    case 'warn':
      return failed.length > 0 && !(rule.level === 'MUST' && failed.some((t) => t.level !== 'SHOULD'));
    case 'not-verified':
      return failed.length === 0;
    case 'not-applicable':
      // why: only a declaration takes a rule out (declared-off.ts); a verdict re-signed as not-applicable has none
      return failed.length === 0 && declaredOff({ id: rule.id, area }, declared) !== undefined;
    default:
      return false;
  }
}

function parseJson<T>(files: Map<string, Buffer>, name: string, check: (ok: boolean, what: string) => void): T | undefined {
  const content = files.get(name);
  if (!content) return undefined;
  try {
    return parseBoundedJson(content) as T;
  } catch (error) {
    check(false, `${name} is JSON (${(error as Error).message})`);
    return undefined;
  }
}
