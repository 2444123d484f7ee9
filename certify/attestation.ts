// The certification attestation: an in-toto Statement whose subjects are every file of the bundle (by SHA-256) and
// whose predicate says who ran what against which target with which result. It is built from the bundle's files
// alone, so a verifier rebuilds it from the files it received and compares it with what was signed.
import { parseBoundedJson } from './bounded-json.ts';
import { BUNDLE_FILES, sha256 } from './bundle.ts';
import type { ConformanceReport } from '../report/conformance-report.ts';

/** The Sigstore bundle (v0.3, DSSE envelope) inside the certification bundle. */
export const ATTESTATION_FILE = 'attestation.sigstore.json';
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
export const PREDICATE_TYPE = 'urn:notification-api-conformance:certification:v1';

export interface Statement {
  _type: typeof STATEMENT_TYPE;
  subject: { name: string; digest: { sha256: string } }[];
  predicateType: typeof PREDICATE_TYPE;
  predicate: CertificationPredicate;
}

export interface CertificationPredicate {
  suite: ConformanceReport['suite'];
  spec: ConformanceReport['spec'];
  /** Where the run went, and the configuration the target declared (features: idempotency, rate limiting…). */
  target: Omit<ConformanceReport['target'], 'declared'> & { image?: string; declared: unknown };
  /** The run options as resolved (configuration.json's `run`, without the local report directory). */
  options: Record<string, unknown>;
  startedAt: string;
  finishedAt: string;
  summary: ConformanceReport['summary'];
  requirements: { id: string; level: string; verdict: string }[];
  certification: ConformanceReport['certification'] | null;
}

/** The statement over `files` (every file of the bundle but the attestation itself). */
export function buildStatement(files: ReadonlyMap<string, string | Buffer>): Statement {
  const subject = [...files.keys()]
    .filter((name) => name !== ATTESTATION_FILE)
    .sort()
    .map((name) => ({ name, digest: { sha256: sha256(files.get(name)!) } }));
  return { _type: STATEMENT_TYPE, subject, predicateType: PREDICATE_TYPE, predicate: predicateOf(files) };
}

function predicateOf(files: ReadonlyMap<string, string | Buffer>): CertificationPredicate {
  const report = parse<ConformanceReport>(files, BUNDLE_FILES.report);
  const configuration = parse<{ target?: { image?: string }; features?: unknown; run?: Record<string, unknown> }>(files, BUNDLE_FILES.configuration);
  const { reportDir: _local, ...options } = configuration.run ?? {};
  return {
    suite: report.suite,
    spec: report.spec,
    target: { ...report.target, ...(configuration.target?.image ? { image: configuration.target.image } : {}), declared: report.target.declared ?? configuration.features ?? null },
    options,
    startedAt: report.startedAt,
    finishedAt: report.finishedAt,
    summary: report.summary,
    requirements: (report.requirements ?? []).map((r) => ({ id: r.id, level: r.level, verdict: r.verdict })),
    certification: report.certification ?? null,
  };
}

function parse<T>(files: ReadonlyMap<string, string | Buffer>, name: string): T {
  const content = files.get(name);
  if (content === undefined) throw new Error(`${name} is missing`);
  return parseBoundedJson(content) as T;
}
