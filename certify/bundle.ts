// The certification bundle (`conformance run --bundle`): one .tar.gz a reviewer can verify — conformance.json,
// junit.xml, the resolved configuration with secrets redacted, provenance (suite version, git commit, spec
// version), the load summary when a load run happened, and SHA256SUMS over every other file; with --sign-key or
// --sign keyless also attestation.sigstore.json, a signed statement over all of them (attestation.ts).
// `tar` (isaacs/node-tar) writes and reads the archive: a maintained, pinned implementation that validates
// header checksums and handles pax/long names, which matters when the verifier reads a bundle it did not write.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { create } from 'tar';
import { SPEC_VERSION } from '../requirements/index.ts';
import type { Settings } from '../config/settings.ts';
import type { Redactor } from '../report/redactor.ts';
import { redactSettings } from '../report/redacted-settings.ts';
import { SUITE_NAME, SUITE_VERSION, suiteSource } from '../report/suite-info.ts';
import type { ConformanceReport } from '../report/conformance-report.ts';

export const BUNDLE_FILE = 'conformance-bundle.tar.gz';
export const BUNDLE_FORMAT = 'notification-api-conformance/bundle';
export const MANIFEST = 'SHA256SUMS';
export const BUNDLE_FILES = {
  report: 'conformance.json',
  junit: 'junit.xml',
  configuration: 'configuration.json',
  provenance: 'provenance.json',
  loadSummary: 'load-summary.json',
} as const;

export interface BundleInput {
  report: ConformanceReport;
  junitXml: string;
  settings: Settings;
  /** Parsed DIR/load.json, when a load run left one. */
  loadJson?: unknown;
  redactor?: Redactor;
}

/** The files of a bundle, name → content; SHA256SUMS last. */
export function bundleFiles(input: BundleInput): Map<string, string> {
  const files = new Map<string, string>();
  const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
  files.set(BUNDLE_FILES.report, json(input.report));
  files.set(BUNDLE_FILES.junit, input.junitXml);
  files.set(BUNDLE_FILES.configuration, json(redactSettings(input.settings)));
  files.set(BUNDLE_FILES.provenance, json(provenance(input.report)));
  const load = loadSummary(input.loadJson);
  if (load) files.set(BUNDLE_FILES.loadSummary, json(load));
  if (input.redactor) for (const [name, content] of files) files.set(name, input.redactor.text(content));
  files.set(MANIFEST, manifest(files));
  return files;
}

export function writeBundle(file: string, input: BundleInput): string {
  return writeArchive(file, bundleFiles(input), new Date(input.report.finishedAt));
}

/** Packs name → content as a .tar.gz of plain files. */
export function writeArchive(file: string, files: Map<string, string>, mtime: Date): string {
  const stage = mkdtempSync(join(tmpdir(), 'conformance-bundle-'));
  try {
    for (const [name, content] of files) writeFileSync(join(stage, name), content);
    // Fixed mtime and portable headers: the same run gives the same archive bytes.
    create({ file, cwd: stage, gzip: true, portable: true, mtime, sync: true }, [...files.keys()]);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  return file;
}

export function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/** `sha256sum -c SHA256SUMS` checks it too. */
function manifest(files: Map<string, string>): string {
  return [...files].map(([name, content]) => `${sha256(content)}  ${name}\n`).join('');
}

function provenance(report: ConformanceReport) {
  return {
    format: BUNDLE_FORMAT,
    formatVersion: 1,
    suite: { name: SUITE_NAME, version: SUITE_VERSION, ...gitState() },
    spec: { version: SPEC_VERSION },
    report: { format: report.format, formatVersion: report.formatVersion, verdict: report.summary.verdict },
    createdAt: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

/** Which suite made the bundle: the digest of its files (suite-release.ts) and, from a checkout, its commit. */
function gitState(): { digest?: string; gitCommit: string | null; gitDirty?: boolean; code?: unknown } {
  const { commit, dirty, digest, code } = suiteSource();
  return { ...(digest ? { digest } : {}), ...(commit === null ? { gitCommit: null } : { gitCommit: commit, gitDirty: dirty }), ...(code ? { code } : {}) };
}

/** load.json without its per-bucket timelines and raw response examples: verdicts and per-route figures. */
export function loadSummary(doc: unknown): unknown {
  if (typeof doc !== 'object' || doc === null) return undefined;
  const d = doc as Record<string, unknown>;
  const timelines = Array.isArray(d.timelines) ? d.timelines : [];
  return {
    format: d.format,
    formatVersion: d.formatVersion,
    engine: d.engine,
    engineVersion: d.engineVersion ?? null,
    profile: d.profile,
    // why: a bundle travels: the timeline files are named by their name and digest, never by a local path
    target: summaryTarget(d.target, timelines),
    expectedRps: d.expectedRps,
    interrupted: d.interrupted ?? false,
    startedAt: d.startedAt,
    finishedAt: d.finishedAt,
    verdicts: d.verdicts,
    leaks: d.leaks,
    scenarios: timelines.map((t) => {
      const tl = (typeof t === 'object' && t !== null ? t : {}) as Record<string, unknown>;
      const routes = (typeof tl.routes === 'object' && tl.routes !== null ? tl.routes : {}) as Record<string, Record<string, unknown>>;
      return {
        scenario: tl.scenario,
        engine: tl.engine,
        engineVersion: tl.engineVersion ?? null,
        target: tl.target,
        phases: Array.isArray((tl.plan as { phases?: unknown } | undefined)?.phases) ? ((tl.plan as { phases: { name?: unknown }[] }).phases.map((p) => p?.name)) : [],
        ...(tl.interrupted ? { interrupted: tl.interrupted } : {}),
        startedAt: tl.startedAt,
        durationMs: tl.durationMs,
        routes: Object.fromEntries(Object.entries(routes).map(([name, r]) => {
          const { examples: _examples, ...rest } = r ?? {};
          return [name, rest];
        })),
      };
    }),
  };
}

function summaryTarget(target: unknown, timelines: unknown[]): unknown {
  if (typeof target !== 'object' || target === null) return target;
  const { fromTimelines, ...rest } = target as Record<string, unknown>;
  if (!Array.isArray(fromTimelines)) return rest;
  return { ...rest, fromTimelines: fromTimelines.map((file, i) => ({ name: basename(String(file)), sha256: timelines[i] === undefined ? null : sha256(JSON.stringify(timelines[i])) })) };
}
