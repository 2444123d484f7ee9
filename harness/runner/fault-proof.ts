// Proof of power: runs the tests of the rules each reference fault breaks against the reference with that fault
// on, and checks those rules come out `fail` (MUST) or `warn` (SHOULD/INFO); against the clean reference no rule
// may fail. One vitest session serves every run, so the proof costs test time, not start-up time.
import { FAULTS, type FaultName } from '../../reference/index.ts';
import { REQUIREMENTS, requirement, type RuleId } from '../../requirements/index.ts';
import type { Settings } from '../config/settings.ts';
import { closeTransport } from '../http/transport.ts';
import { computeVerdicts, type RuleVerdict, type Verdict } from '../report/verdicts.ts';
import { startEmbeddedTarget } from './embedded-target.ts';
import { toProfile } from './profile.ts';
import { SuiteSession } from './run-suites.ts';

/** Rules verified by the load harness (test/load), not by the functional suites. */
export const LOAD_VERIFIED_RULES: readonly RuleId[] = ['RL-05'];

export interface FaultRow {
  fault: FaultName;
  description: string;
  /** Verdict of each rule the fault names, under that fault. */
  rules: { id: RuleId; level: string; verdict: Verdict | 'load-harness' }[];
  killed: boolean;
  /** A deployed-only fault (spec "not shown") must also leave every MUST rule standing: those it failed. */
  mustFailures?: RuleId[];
  durationMs: number;
}

export interface FaultProof {
  clean: RuleVerdict[];
  /** Rules that fail or warn against the clean reference: false positives. */
  falsePositives: RuleVerdict[];
  rows: FaultRow[];
  /** MUST rules no fault breaks (so no run has shown their tests can fail). */
  uncoveredMustRules: RuleId[];
  errors: string[];
}

export async function proveFaults(settings: Settings, faults: FaultName[], log: (line: string) => void): Promise<FaultProof> {
  const clean = await startEmbeddedTarget([]);
  const cleanProfile = toProfile(settings, clean);
  const session = await SuiteSession.open(cleanProfile);
  const errors: string[] = [];
  try {
    log('Clean reference: every rule must pass or be honestly not verified / not applicable');
    const cleanRun = await session.run(cleanProfile);
    await clean.reference.close();
    errors.push(...cleanRun.errors);
    const cleanVerdicts = computeVerdicts(cleanRun.records, settings.features);
    const filesOf = new Map<string, Set<string>>();
    for (const record of cleanRun.records) for (const rule of record.rules) (filesOf.get(rule) ?? filesOf.set(rule, new Set()).get(rule)!).add(record.file);

    const rows: FaultRow[] = [];
    for (const fault of faults) {
      const started = Date.now();
      const rules = FAULTS[fault].rules as readonly RuleId[];
      const suiteRules = rules.filter((r) => !LOAD_VERIFIED_RULES.includes(r));
      let verdicts: RuleVerdict[] = [];
      if (suiteRules.length > 0) {
        const target = await startEmbeddedTarget([fault]);
        try {
          // A rule checked only passively (on every exchange) has no tests of its own: all functional suites run.
          const passiveOnly = suiteRules.some((r) => !filesOf.has(r));
          const profile = { ...toProfile(settings, target), rules: passiveOnly ? [] : [...suiteRules] };
          const files = passiveOnly ? undefined : [...new Set(suiteRules.flatMap((r) => [...(filesOf.get(r) ?? [])]))];
          const run = await session.run(profile, passiveOnly ? { rateLimitPhase: false } : { files: files! });
          errors.push(...run.errors.map((e) => `[${fault}] ${e}`));
          verdicts = computeVerdicts(run.records, settings.features);
        } finally {
          await target.reference.close();
        }
      }
      const deployedOnly = 'deployedOnly' in FAULTS[fault];
      const mustFailures = deployedOnly ? verdicts.filter((v) => v.level === 'MUST' && v.verdict === 'fail').map((v) => v.id as RuleId) : [];
      const row: FaultRow = {
        fault,
        description: FAULTS[fault].description,
        rules: rules.map((id) => ({
          id,
          level: requirement(id).level,
          verdict: LOAD_VERIFIED_RULES.includes(id) ? 'load-harness' : (verdicts.find((v) => v.id === id)?.verdict ?? 'not-verified'),
        })),
        killed: rules.every((id) => LOAD_VERIFIED_RULES.includes(id) || caught(verdicts.find((v) => v.id === id))) && mustFailures.length === 0,
        ...(deployedOnly ? { mustFailures } : {}),
        durationMs: Date.now() - started,
      };
      rows.push(row);
      const mustNote = deployedOnly ? (mustFailures.length === 0 ? '  (no MUST rule failed)' : `  but MUST rule(s) failed: ${mustFailures.join(', ')}`) : '';
      log(`  ${row.killed ? '✓ killed  ' : '✗ SURVIVED'} ${fault.padEnd(34)} ${row.rules.map((r) => `${r.id}=${r.verdict}`).join(' ')}${mustNote}`);
    }
    const broken = new Set(Object.values(FAULTS).flatMap((f) => f.rules as readonly string[]));
    return {
      clean: cleanVerdicts,
      falsePositives: cleanVerdicts.filter((v) => v.verdict === 'fail' || v.verdict === 'warn'),
      rows,
      uncoveredMustRules: REQUIREMENTS.filter((r) => r.level === 'MUST' && !broken.has(r.id)).map((r) => r.id),
      errors,
    };
  } finally {
    await session.close();
    await closeTransport();
    await clean.reference.close().catch(() => undefined);
  }
}

/** A MUST rule is caught by `fail`, or by `warn` when what broke is a SHOULD-level case of it (AUTH-03's bare key). */
function caught(verdict: RuleVerdict | undefined): boolean {
  if (!verdict) return false;
  if (verdict.verdict === 'fail') return verdict.level === 'MUST';
  if (verdict.verdict === 'warn') return verdict.level !== 'MUST' || verdict.tests.some((t) => t.status === 'failed' && t.level === 'SHOULD');
  return false;
}
