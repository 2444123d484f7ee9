// The certification bundle from what a run left in DIR: the report, junit.xml and configuration.json it wrote, and
// DIR/load.json when a load run merged its verdicts into it; signed when asked.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Settings } from '../config/settings.ts';
import type { ConformanceReport } from '../report/conformance-report.ts';
import { REDACTED } from '../report/redacted-settings.ts';
import { Redactor } from '../report/redactor.ts';
import { ARTIFACTS, readLoadJson } from '../report/write-reports.ts';
import { runningCode, suiteSource } from '../report/suite-info.ts';
import { ATTESTATION_FILE, buildStatement } from './attestation.ts';
import { BUNDLE_FILE, bundleFiles, loadSummary, writeArchive } from './bundle.ts';
import { loadPlanReasons, type LoadPlanSummary } from './load-plan.ts';
import { signStatement, type SigningMethod } from './sign-attestation.ts';

export interface BundleOptions {
  /** Default DIR/conformance-bundle.tar.gz. */
  file?: string;
  /** The run's settings (their keys feed the last redaction pass); default DIR/configuration.json. */
  settings?: Settings;
  /** Signs the bundle's files into attestation.sigstore.json. */
  signing?: SigningMethod;
  /** Told, before anything is signed, every reason the run cannot certify (the grade's and the load plan's). */
  onWarning?: (line: string) => void;
  /** The run's keys as the settings and environment give them (configuration.json holds them redacted). */
  keys?: readonly (string | undefined)[];
}

/** A file of the report dir or the bundle holds one of the run's keys: nothing is written, nothing signed. */
export class KeyInBundleError extends Error {}

/** The run ran a CLI bundle that the suite's files, built afresh by this command, do not give: nothing is written, nothing signed. */
export class RunCodeNotReleasedError extends Error {}

/** Keys shorter than this are not searched for: they would match by chance, and no real API key is that short. */
const MIN_KEY = 8;

/** The certification bundle from what a run wrote to DIR (plus DIR/load.json when a load run merged into it). */
export async function writeBundleFromDir(dir: string, options: BundleOptions = {}): Promise<string> {
  const report = JSON.parse(readFileSync(join(dir, ARTIFACTS.conformanceJson), 'utf8')) as ConformanceReport;
  const junit = readFileSync(join(dir, ARTIFACTS.junitXml), 'utf8');
  const settings = options.settings ?? (JSON.parse(readFileSync(join(dir, ARTIFACTS.configuration), 'utf8')) as Settings);
  const { apiKey, secondaryApiKey, restrictedApiKey } = settings.target;
  const secret = (value: string | undefined, placeholder: string) => ({ value: value === REDACTED ? '' : (value ?? ''), placeholder });
  const redactor = new Redactor([
    secret(apiKey, 'CONFORMANCE_API_KEY'),
    secret(secondaryApiKey, 'CONFORMANCE_SECONDARY_API_KEY'),
    secret(restrictedApiKey, 'CONFORMANCE_RESTRICTED_API_KEY'),
  ]);
  const keys = [apiKey, secondaryApiKey, restrictedApiKey, ...(options.keys ?? [])].filter((k): k is string => typeof k === 'string' && k !== REDACTED && k.length >= MIN_KEY);
  // why: the run and the load harness redact; a key still in what they wrote is a leak to stop, not to sign
  for (const name of [ARTIFACTS.conformanceJson, ARTIFACTS.junitXml, ARTIFACTS.configuration, ARTIFACTS.loadJson]) {
    const path = join(dir, name);
    if (existsSync(path) && holdsKey(readFileSync(path, 'utf8'), keys)) throw new KeyInBundleError(`${path} holds one of the run's API keys: no bundle written and nothing signed (remove the file's key, or run again with this version, which redacts it)`);
  }
  const notBuilt = codeNotBuilt(report);
  if (notBuilt) throw new RunCodeNotReleasedError(notBuilt);
  const loadJson = readLoadJson(dir);
  const files = bundleFiles({ report, junitXml: junit, settings, redactor, ...(loadJson !== undefined ? { loadJson } : {}) });
  for (const [name, content] of files) if (holdsKey(content, keys)) throw new KeyInBundleError(`the bundle's ${name} would hold one of the run's API keys: no bundle written and nothing signed`);
  // why: `conformance load` wrote its plan's reasons into the grade; a report it did not grade gets them here
  const cannot = [...new Set([...(report.certification?.reasons ?? []).map((r) => r.text), ...loadPlanReasons(loadSummary(loadJson) as LoadPlanSummary | undefined, report)])];
  if (cannot.length > 0) options.onWarning?.(`this run cannot certify: ${cannot.join('; ')}. A certification needs a released suite, every rule, no baseline, a candidate target, an uninterrupted run and, for the rate-limit rules, \`conformance load --profile full\` with every scenario against the same target`);
  if (options.signing) files.set(ATTESTATION_FILE, await signStatement(buildStatement(files), options.signing));
  return writeArchive(options.file ?? join(dir, BUNDLE_FILE), files, new Date(report.finishedAt));
}

/** The key as written, JSON-escaped, URL-encoded or in base64 (as a Basic credential or a token would carry it). */
function holdsKey(content: string, keys: readonly string[]): boolean {
  return keys.some((key) => [key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key), Buffer.from(key).toString('base64')].some((form) => content.includes(form)));
}

/**
 * Why the run's code was not what the suite's files build, or undefined: the CLI bundle the run recorded against the
 * one this command runs, built afresh from the same files (a certifying start: bin/conformance.js). Only then are the
 * two comparable; an edit of the cache that rewrote its recorded digest passes an ordinary run, and is caught here.
 */
function codeNotBuilt(report: ConformanceReport): string | undefined {
  const ran = report.suite?.code;
  const now = runningCode();
  if (ran?.from !== 'bundle' || !('sha256' in ran) || now.from !== 'bundle' || !('sha256' in now) || now.checked !== 'built') return undefined;
  if (report.suite.digest !== suiteSource().digest || ran.sha256 === now.sha256) return undefined;
  return `the run ran a CLI bundle (${ran.sha256}) that its suite's files do not build (${now.sha256}, built afresh from the same files now): that code was not the release's; run again — no bundle written, nothing signed`;
}
