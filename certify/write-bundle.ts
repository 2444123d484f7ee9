// The certification bundle from what a run left in DIR: the report, junit.xml and configuration.json it wrote, and
// DIR/load.json when a load run merged its verdicts into it; signed when asked.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Settings } from '../config/settings.ts';
import type { ConformanceReport } from '../report/conformance-report.ts';
import { REDACTED } from '../report/redacted-settings.ts';
import { Redactor } from '../report/redactor.ts';
import { ARTIFACTS, readLoadJson } from '../report/write-reports.ts';
import { ATTESTATION_FILE, buildStatement } from './attestation.ts';
import { BUNDLE_FILE, bundleFiles, writeArchive } from './bundle.ts';
import { signStatement, type SigningMethod } from './sign-attestation.ts';

export interface BundleOptions {
  /** Default DIR/conformance-bundle.tar.gz. */
  file?: string;
  /** The run's settings (their keys feed the last redaction pass); default DIR/configuration.json. */
  settings?: Settings;
  /** Signs the bundle's files into attestation.sigstore.json. */
  signing?: SigningMethod;
}

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
  const loadJson = readLoadJson(dir);
  const files = bundleFiles({ report, junitXml: junit, settings, redactor, ...(loadJson !== undefined ? { loadJson } : {}) });
  if (options.signing) files.set(ATTESTATION_FILE, await signStatement(buildStatement(files), options.signing));
  return writeArchive(options.file ?? join(dir, BUNDLE_FILE), files, new Date(report.finishedAt));
}
