// Every artifact of a run is written here, from the report alone: conformance.json, junit.xml and conformance.html
// (allure-results/ is written during the run by the Allure reporter).
// Everything is already redacted; the redactor runs once more over each file as a last line of defence.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Settings } from '../config/settings.ts';
import { Redactor } from '../http/redactor.ts';
import { BUNDLE_FILE, writeBundle } from './bundle.ts';
import type { ConformanceReport } from './conformance-report.ts';
import { conformanceHtml } from './conformance-html.ts';
import { junitXml } from './junit.ts';

export const ARTIFACTS = { conformanceJson: 'conformance.json', junitXml: 'junit.xml', conformanceHtml: 'conformance.html', loadJson: 'load.json' } as const;

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

/** The certification bundle from what this run wrote to DIR (plus DIR/load.json when present). */
export function writeBundleFromDir(dir: string, settings: Settings, file = join(dir, BUNDLE_FILE)): string {
  const report = JSON.parse(readFileSync(join(dir, ARTIFACTS.conformanceJson), 'utf8')) as ConformanceReport;
  const junit = readFileSync(join(dir, ARTIFACTS.junitXml), 'utf8');
  const { apiKey, secondaryApiKey, restrictedApiKey } = settings.target;
  const redactor = new Redactor([
    { value: apiKey ?? '', placeholder: 'CONFORMANCE_API_KEY' },
    { value: secondaryApiKey ?? '', placeholder: 'CONFORMANCE_SECONDARY_API_KEY' },
    { value: restrictedApiKey ?? '', placeholder: 'CONFORMANCE_RESTRICTED_API_KEY' },
  ]);
  const loadJson = readLoadJson(dir);
  return writeBundle(file, { report, junitXml: junit, settings, redactor, ...(loadJson !== undefined ? { loadJson } : {}) });
}
