// Proof of power: runs the tests of the rules each reference fault breaks against the reference with that fault
// on, and checks those rules come out `fail` (MUST) or `warn` (SHOULD/INFO); against the clean reference no rule
// may fail. One vitest session serves every run, so the proof costs test time, not start-up time; faults whose
// tests share no suite file run together, each against its own reference, so the proof takes a few runs, not 135.
import { FAULTS, type FaultName } from '../../reference/index.ts';
import { REQUIREMENTS, requirement, type RuleId } from '../../requirements/index.ts';
import type { Settings } from '../config/settings.ts';
import { closeTransport } from '../http/transport.ts';
import { computeVerdicts, type RuleVerdict, type Verdict } from '../report/verdicts.ts';
import { startEmbeddedTarget } from './embedded-target.ts';
import { toProfile } from './profile.ts';
import { isRateLimitSuite } from './rate-limit-phases.ts';
import { SuiteSession } from './run-suites.ts';

/** Rules verified by the load harness (test/load), not by the functional suites. */
export const LOAD_VERIFIED_RULES: readonly RuleId[] = ['RL-05'];

export interface FaultRow {
  fault: FaultName;
  description: string;
  /** Verdict of each rule the fault names, under that fault. */
  rules: { id: RuleId; level: string; verdict: Verdict | 'load-harness' }[];
  killed: boolean;
  /** Wall-clock time of the run that proved it (shared with the faults proved in the same run). */
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
    const functionalFiles = [...new Set(cleanRun.records.map((r) => r.file))].filter((f) => !isRateLimitSuite(f));

    const rows = new Map<FaultName, FaultRow>();
    const proved = faults.map((fault) => ({ fault, selection: selectionFor(FAULTS[fault].rules as readonly RuleId[], filesOf, functionalFiles) }));
    for (const { fault } of proved.filter((p) => !p.selection)) rows.set(fault, logged(rowOf(fault, [], 0), log));
    // Faults whose tests share no suite file run at once, each against its own reference.
    const waves = inWaves(proved.filter((p): p is Proved => p.selection !== undefined));
    for (const [index, wave] of waves.entries()) {
      log(`Run ${index + 1} of ${waves.length}: ${wave.length} fault(s), each against its own reference`);
      const started = Date.now();
      const targets = await Promise.all(wave.map((p) => startEmbeddedTarget([p.fault])));
      try {
        const parts = wave.map((p, i) => ({ profile: { ...toProfile(settings, targets[i]), rules: p.selection.rules }, files: p.selection.files, rateLimitPhase: p.selection.rateLimitPhase }));
        const runs = await session.runTogether(parts);
        const durationMs = Date.now() - started;
        wave.forEach((p, i) => {
          errors.push(...runs[i]!.errors.map((e) => `[${p.fault}] ${e}`));
          rows.set(p.fault, logged(rowOf(p.fault, computeVerdicts(runs[i]!.records, settings.features), durationMs), log));
        });
      } finally {
        await Promise.all(targets.map((t) => t.reference.close()));
      }
    }
    const broken = new Set(Object.values(FAULTS).flatMap((f) => f.rules as readonly string[]));
    return {
      clean: cleanVerdicts,
      falsePositives: cleanVerdicts.filter((v) => v.verdict === 'fail' || v.verdict === 'warn'),
      rows: faults.map((fault) => rows.get(fault)!),
      uncoveredMustRules: REQUIREMENTS.filter((r) => r.level === 'MUST' && !broken.has(r.id)).map((r) => r.id),
      errors,
    };
  } finally {
    await session.close();
    await closeTransport();
    await clean.reference.close().catch(() => undefined);
  }
}

/** The suite files that can show a fault, and the rules whose tests run there. */
interface Selection {
  rules: RuleId[];
  files: string[];
  rateLimitPhase: boolean;
}
interface Proved {
  fault: FaultName;
  selection: Selection;
}

/**
 * The tests that exercise the rules a fault breaks: the files of their tests in the clean run. A rule checked only
 * passively (on every exchange) has no tests of its own: every functional suite runs. Undefined when only the load
 * harness verifies the rules.
 */
function selectionFor(rules: readonly RuleId[], filesOf: Map<string, Set<string>>, functionalFiles: string[]): Selection | undefined {
  const suiteRules = rules.filter((r) => !LOAD_VERIFIED_RULES.includes(r));
  if (suiteRules.length === 0) return undefined;
  if (suiteRules.some((r) => !filesOf.has(r))) return { rules: [], files: functionalFiles, rateLimitPhase: false };
  return { rules: [...suiteRules], files: [...new Set(suiteRules.flatMap((r) => [...filesOf.get(r)!]))], rateLimitPhase: true };
}

/** Groups faults into runs in which no suite file serves two faults (first fit, faults with the most files first). */
function inWaves(proved: Proved[]): Proved[][] {
  const waves: { faults: Proved[]; files: Set<string> }[] = [];
  for (const p of [...proved].sort((a, b) => b.selection.files.length - a.selection.files.length)) {
    const wave = waves.find((w) => p.selection.files.every((f) => !w.files.has(f)));
    if (wave) {
      wave.faults.push(p);
      for (const f of p.selection.files) wave.files.add(f);
    } else waves.push({ faults: [p], files: new Set(p.selection.files) });
  }
  return waves.map((w) => w.faults);
}

function logged(row: FaultRow, log: (line: string) => void): FaultRow {
  log(`  ${row.killed ? '✓ killed  ' : '✗ SURVIVED'} ${row.fault.padEnd(34)} ${row.rules.map((r) => `${r.id}=${r.verdict}`).join(' ')}`);
  return row;
}

function rowOf(fault: FaultName, verdicts: RuleVerdict[], durationMs: number): FaultRow {
  const rules = FAULTS[fault].rules as readonly RuleId[];
  return {
    fault,
    description: FAULTS[fault].description,
    rules: rules.map((id) => ({
      id,
      level: requirement(id).level,
      verdict: LOAD_VERIFIED_RULES.includes(id) ? 'load-harness' : (verdicts.find((v) => v.id === id)?.verdict ?? 'not-verified'),
    })),
    killed: rules.every((id) => LOAD_VERIFIED_RULES.includes(id) || caught(verdicts.find((v) => v.id === id))),
    durationMs,
  };
}

/** A MUST rule is caught by `fail`, or by `warn` when what broke is a SHOULD-level case of it (AUTH-03's bare key). */
function caught(verdict: RuleVerdict | undefined): boolean {
  if (!verdict) return false;
  if (verdict.verdict === 'fail') return verdict.level === 'MUST';
  if (verdict.verdict === 'warn') return verdict.level !== 'MUST' || verdict.tests.some((t) => t.status === 'failed' && t.level === 'SHOULD');
  return false;
}
