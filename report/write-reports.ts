// Every artifact of a run is written here, from the report alone: conformance.json,
// junit.xml, conformance.html and configuration.json, the resolved settings with secrets redacted (allure-results/
// is written during the run by the Allure reporter). The certification bundle is certify/write-bundle.ts.
// Everything is already redacted; the redactor runs once more over each file as a last line of defence.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Settings } from '../config/settings.ts';
import type { Redactor } from './redactor.ts';
import { redactSettings } from './redacted-settings.ts';
import type { ConformanceReport } from './conformance-report.ts';
import { conformanceHtml } from './conformance-html.ts';
import { junitXml } from './junit.ts';

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
