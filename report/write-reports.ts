// Every artifact of a run is written here, from the report alone: conformance.json,
// junit.xml, conformance.html and configuration.json, the resolved settings with secrets redacted (allure-results/
// is written during the run by the Allure reporter); and the certification bundle from what a run left in DIR.
// Everything is already redacted; the redactor runs once more over each file as a last line of defence.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Settings } from '../config/settings.ts';
import { Redactor } from './redactor.ts';
import { ATTESTATION_FILE, buildStatement } from './attestation.ts';
import { BUNDLE_FILE, bundleFiles, REDACTED, redactSettings, writeArchive } from './bundle.ts';
import type { ConformanceReport } from './conformance-report.ts';
import { conformanceHtml } from './conformance-html.ts';
import { junitXml } from './junit.ts';
import { signStatement, type SigningMethod } from './sign-attestation.ts';

export const ARTIFACTS = { conformanceJson: 'conformance.json', junitXml: 'junit.xml', conformanceHtml: 'conformance.html', loadJson: 'load.json', configuration: 'configuration.json' } as const;

export interface WrittenReports {
  conformanceJson: string;
  junitXml: string;
  conformanceHtml: string;
}

export function writeReports(dir: string, report: ConformanceReport, redactor?: Redactor): WrittenReports {
  mkdirSync(dir, { recursive: true });
  const write = (name: string, content: string) => {
    const file = join(dir, name);
    writeFileSync(file, redactor ? redactor.text(content) : content);
    return file;
  };
  return {
    conformanceJson: write(ARTIFACTS.conformanceJson, `${JSON.stringify(report, null, 2)}\n`),
    junitXml: write(ARTIFACTS.junitXml, junitXml(report)),
    conformanceHtml: write(ARTIFACTS.conformanceHtml, conformanceHtml(report, readLoadJson(dir))),
  };
}

/** The run's settings, keys redacted: what `conformance bundle` packages after a load run has merged its verdicts. */
export function writeConfiguration(dir: string, settings: Settings): string {
  const file = join(dir, ARTIFACTS.configuration);
  writeFileSync(file, `${JSON.stringify(redactSettings(settings), null, 2)}\n`);
  return file;
}

/** Rewrites every artifact from DIR/conformance.json (after a load run merged its verdicts into it): one report, every file agrees. */
export function rewriteReports(dir: string): WrittenReports {
  return writeReports(dir, JSON.parse(readFileSync(join(dir, ARTIFACTS.conformanceJson), 'utf8')) as ConformanceReport);
}

/** DIR/load.json when a load run wrote one; its shape is checked where it is drawn. */
export function readLoadJson(dir: string): unknown {
  const file = join(dir, ARTIFACTS.loadJson);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

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
