// Proof of power: runs the tests of the rules each reference fault breaks against the reference with that fault
// on, and checks those rules come out `fail` (MUST) or `warn` (SHOULD/INFO); against the clean reference no rule
// may fail. Two vitest sessions serve every run, so the proof costs test time, not start-up time; faults whose
// tests share no suite file run together, each against its own reference, so the proof takes a few runs, not 145.
import { FAULTS, needsLongChecks, provenBy, type FaultName } from '../../reference/index.ts';
import { LOAD_VERIFIED_RULES, REQUIREMENTS, requirement, type RuleId } from '../../requirements/index.ts';
import type { Settings } from '../../config/settings.ts';
import { closeTransport } from '../http/transport.ts';
import { computeVerdicts, type RuleVerdict, type Verdict } from '../../report/verdicts.ts';
import { startEmbeddedTarget } from './embedded-target.ts';
import { toProfile } from './profile.ts';
import type { TargetProfile } from '../target-profile.ts';
import { SuiteSession } from './run-suites.ts';

export interface FaultRow {
  fault: FaultName;
  description: string;
  /** Verdict of each rule the fault names, under that fault. */
  rules: { id: RuleId; level: string; verdict: Verdict | 'load-harness' }[];
  killed: boolean;
  /** A deployed-only fault (spec "not shown") must also leave every MUST rule standing: those it failed. */
  mustFailures?: RuleId[];
  /** Wall-clock time of the run that proved it (shared with the faults proved in the same run). */
  durationMs: number;
  /** Set for faults no suite test reaches: `conformance fuzz` (default seed and budget) or `conformance diff` proved them. */
  provenBy?: 'fuzz' | 'diff';
  /** The findings or differences that show the fault. */
  evidence?: string[];
}

/**
 * Proves the faults no suite test can reach (`provenBy: 'fuzz'` in the catalog) by fuzzing: a rule counts as broken
 * when the fuzzer, with its default seed and budget, reports an error finding naming it.
 */
export interface FuzzProver {
  /** Error findings against the clean reference on the operations these faults concern: each is a false positive. */
  clean(faults: FaultName[]): Promise<string[]>;
  withFault(fault: FaultName): Promise<{ broken: RuleId[]; evidence: string[] }>;
}

/** Proves drift faults (`provenBy: 'diff'`): `conformance diff` of the reference with the fault against the clean one. */
export interface DiffProver {
  /** Differences between two clean references: each is a false positive. */
  clean(): Promise<string[]>;
  /** The differences `conformance diff` shows with the fault on (`<operation> <path>: …`). */
  withFault(fault: FaultName): Promise<string[]>;
}

export interface OtherProvers {
  fuzz?: FuzzProver;
  diff?: DiffProver;
}

export interface FaultProof {
  clean: RuleVerdict[];
  /** Rules that fail or warn against the clean reference: false positives. */
  falsePositives: RuleVerdict[];
  rows: FaultRow[];
  /** MUST rules no fault breaks (so no run has shown their tests can fail). */
  uncoveredMustRules: RuleId[];
  /**
   * The deployed-only faults (variations the spec permits) all on in one reference, judged by the whole suite: a MUST
   * rule failing there holds a vendor to something the spec leaves open, whichever file its test is in.
   */
  permittedTogether?: { faults: FaultName[]; mustFailures: RuleId[] };
  errors: string[];
}

/** The clean reference's verdicts from an earlier run of the same suite (a conformance report), instead of a run of its own. */
export interface CleanVerdicts {
  verdicts: RuleVerdict[];
  errors: string[];
  /** Where they come from, for the log. */
  source: string;
}

/**
 * Suite sessions that take the proof's runs from one queue. A run waits for its slowest file, and the faults that
 * share a suite file (the bridgeUrl faults: one file) each need a run of their own; with two sessions, one fills
 * the other's waits.
 */
const PROOF_SESSIONS = 2;

export async function proveFaults(settings: Settings, faults: FaultName[], log: (line: string) => void, provers: OtherProvers = {}, cleanFrom?: CleanVerdicts): Promise<FaultProof> {
  const clean = await startEmbeddedTarget([]);
  const cleanProfile = toProfile(settings, clean);
  const errors: string[] = [];
  const rows = new Map<FaultName, FaultRow>();
  const longCleanFailures: RuleVerdict[] = [];
  // Started first: its runs wait on the clock longest.
  const longProof = proveWithLongChecks(faults.filter((f) => provenBy(f) === 'suites' && needsLongChecks(f)), settings, cleanProfile, rows, longCleanFailures, errors, log);
  let sessions: SuiteSession[] = [];
  try {
    sessions = await Promise.all(Array.from({ length: PROOF_SESSIONS }, () => SuiteSession.open(cleanProfile, { workers: settings.run.workers, keepThreads: true })));
    const bySuites: Proved[] = [];
    const elsewhere: FaultName[] = [];
    for (const fault of faults) {
      if (provenBy(fault) !== 'suites') {
        elsewhere.push(fault);
        continue;
      }
      if (needsLongChecks(fault)) continue; // proved beside the waves (proveWithLongChecks)
      const rules = suiteRules(fault);
      // The shortest run that can show the rules fail: their own tests (all traffic for a rule checked only passively).
      if (rules.length > 0) bySuites.push({ fault, rules, files: await sessions[0]!.filesFor(rules, 'shortest') });
      else rows.set(fault, logged(rowOf(fault, [], 0), log));
    }
    // Faults whose tests share no suite file run at once, each against its own reference.
    const waves = inWaves(bySuites);
    let cleanVerdicts = cleanFrom?.verdicts;
    if (cleanFrom) {
      log(`Clean reference: the verdicts of ${cleanFrom.source} (every rule must pass or be honestly not verified / not applicable)`);
      errors.push(...cleanFrom.errors);
    }
    const jobs: ((session: SuiteSession) => Promise<void>)[] = [];
    if (!cleanFrom) {
      jobs.push(async (session) => {
        log('Clean reference: every rule must pass or be honestly not verified / not applicable');
        const cleanRun = await session.run(cleanProfile);
        errors.push(...cleanRun.errors);
        cleanVerdicts = computeVerdicts(cleanRun.records, settings.features);
      });
    }
    const permitted = faults.filter((f) => provenBy(f) === 'suites' && 'deployedOnly' in FAULTS[f]);
    let permittedTogether: FaultProof['permittedTogether'];
    if (permitted.length > 0) {
      jobs.push(async (session) => {
        const target = await startEmbeddedTarget(permitted);
        try {
          const run = await session.run(toProfile(settings, target));
          errors.push(...run.errors.map((e) => `[permitted variations together] ${e}`));
          const mustFailures = computeVerdicts(run.records, settings.features).filter((v) => v.level === 'MUST' && v.verdict === 'fail').map((v) => v.id as RuleId);
          permittedTogether = { faults: permitted, mustFailures };
          log(`The ${permitted.length} permitted variations (deployed-only faults) together, the whole suite: ${mustFailures.length === 0 ? 'no MUST rule failed' : `MUST rule(s) failed: ${mustFailures.join(', ')}`}`);
        } finally {
          await target.reference.close();
        }
      });
    }
    for (const [index, wave] of waves.entries()) {
      jobs.push(async (session) => {
        const started = Date.now();
        const targets = await Promise.all(wave.map((p) => startEmbeddedTarget([p.fault])));
        try {
          const parts = wave.map((p, i) => ({ profile: { ...toProfile(settings, targets[i]), rules: p.rules }, files: p.files, scope: 'shortest' as const }));
          const runs = await session.runTogether(parts);
          const durationMs = Date.now() - started;
          log(`Run ${index + 1} of ${waves.length}: ${wave.length} fault(s), each against its own reference, ${(durationMs / 1000).toFixed(1)} s`);
          wave.forEach((p, i) => {
            errors.push(...runs[i]!.errors.map((e) => `[${p.fault}] ${e}`));
            rows.set(p.fault, logged(rowOf(p.fault, computeVerdicts(runs[i]!.records, settings.features), durationMs), log));
          });
        } finally {
          await Promise.all(targets.map((t) => t.reference.close()));
        }
      });
    }
    const queue = [...jobs];
    await Promise.all([
      ...sessions.map(async (session) => {
        for (let job = queue.shift(); job; job = queue.shift()) await job(session);
      }),
      // conformance fuzz and diff need no suite session: they run beside the suites' runs
      proveElsewhere(elsewhere, provers, rows, errors, log),
      longProof,
    ]);
    await clean.reference.close();
    const broken = new Set(Object.values(FAULTS).flatMap((f) => f.rules as readonly string[]));
    return {
      clean: cleanVerdicts!,
      falsePositives: [...cleanVerdicts!.filter((v) => v.verdict === 'fail' || v.verdict === 'warn'), ...longCleanFailures],
      rows: faults.map((fault) => rows.get(fault)!),
      uncoveredMustRules: REQUIREMENTS.filter((r) => r.level === 'MUST' && !broken.has(r.id)).map((r) => r.id),
      ...(permittedTogether ? { permittedTogether } : {}),
      errors,
    };
  } finally {
    // On an error the long checks' runs may still be going: their sessions close themselves first.
    await longProof.catch(() => undefined);
    await Promise.all(sessions.map((session) => session.close()));
    await closeTransport();
    await clean.reference.close().catch(() => undefined);
  }
}

/**
 * Faults only the long checks show (a key forgotten after seconds): their rules' tests with the long checks on, against
 * the faulty reference and, as its control, the clean one — the run's clean verdicts have no long check in them. Each
 * run waits on the clock (IDEM-02's 25 s), so it gets a one-thread session of its own, beside the waves, and holds
 * none of them up.
 */
async function proveWithLongChecks(
  faults: FaultName[],
  settings: Settings,
  cleanProfile: TargetProfile,
  rows: Map<FaultName, FaultRow>,
  cleanFailures: RuleVerdict[],
  errors: string[],
  log: (line: string) => void,
): Promise<void> {
  if (faults.length === 0) return;
  const rules = [...new Set(faults.flatMap(suiteRules))];
  const inSession = async (work: (session: SuiteSession) => Promise<void>) => {
    const session = await SuiteSession.open(cleanProfile, { workers: 1 });
    try {
      await work(session);
    } finally {
      await session.close();
    }
  };
  // A clean reference of its own: the proof's clean run may be draining the shared one, which another session's bucket plan does not know.
  const clean = inSession(async (session) => {
    const target = await startEmbeddedTarget([]);
    const run = await session.run({ ...toProfile(settings, target), rules, longChecks: true }, { files: await session.filesFor(rules, 'shortest'), scope: 'shortest' }).finally(() => target.reference.close());
    errors.push(...run.errors.map((e) => `[clean reference, long checks] ${e}`));
    const verdicts = computeVerdicts(run.records, settings.features).filter((v) => rules.includes(v.id as RuleId));
    log(`Clean reference with the long checks on (${rules.join(', ')}): ${verdicts.map((v) => `${v.id}=${v.verdict}`).join(' ')}`);
    cleanFailures.push(...verdicts.filter((v) => v.verdict === 'fail' || v.verdict === 'warn'));
  });
  const faulty = inSession(async (session) => {
    for (const fault of faults) {
      const started = Date.now();
      const faultRules = suiteRules(fault);
      const target = await startEmbeddedTarget([fault]);
      try {
        const run = await session.run({ ...toProfile(settings, target), rules: faultRules, longChecks: true }, { files: await session.filesFor(faultRules, 'shortest'), scope: 'shortest' });
        errors.push(...run.errors.map((e) => `[${fault}] ${e}`));
        rows.set(fault, logged(rowOf(fault, computeVerdicts(run.records, settings.features), Date.now() - started), log));
      } finally {
        await target.reference.close();
      }
    }
  });
  await Promise.all([clean, faulty]);
}

/** The faults `conformance fuzz` or `conformance diff` prove, after both show nothing against clean references. */
async function proveElsewhere(faults: FaultName[], provers: OtherProvers, rows: Map<FaultName, FaultRow>, errors: string[], log: (line: string) => void): Promise<void> {
  const fuzzFaults = faults.filter((f) => provenBy(f) === 'fuzz');
  if (fuzzFaults.length > 0 && provers.fuzz) {
    log('Clean reference under `conformance fuzz` (the operations of the fuzz-only faults): no finding allowed');
    errors.push(...(await provers.fuzz.clean(fuzzFaults)).map((f) => `FALSE POSITIVE (fuzz, clean reference): ${f}`));
  }
  if (faults.some((f) => provenBy(f) === 'diff') && provers.diff) {
    log('Clean reference against a second clean reference under `conformance diff`: no difference allowed');
    errors.push(...(await provers.diff.clean()).map((d) => `FALSE POSITIVE (diff, two clean references): ${d}`));
  }
  for (const fault of faults) {
    const row = provenBy(fault) === 'fuzz' ? await proveByFuzz(fault, provers.fuzz) : await proveByDiff(fault, provers.diff);
    rows.set(fault, row);
    const shown = row.provenBy === 'diff' ? `drift at ${row.evidence?.length ? row.evidence[0] : 'nothing'}` : row.rules.map((r) => `${r.id}=${r.verdict}`).join(' ');
    log(`  ${row.killed ? '✓ killed  ' : '✗ SURVIVED'} ${fault.padEnd(34)} ${shown} (by conformance ${row.provenBy})`);
  }
}

/** The rules a fault breaks that the suites judge (RL-05 is the load tests'). */
function suiteRules(fault: FaultName): RuleId[] {
  return (FAULTS[fault].rules as readonly RuleId[]).filter((r) => !LOAD_VERIFIED_RULES.includes(r));
}

/** A fault the suites prove: the rules it breaks that the suites verify, and the suite files that run for them. */
interface Proved {
  fault: FaultName;
  rules: RuleId[];
  files: string[];
}

/** Groups faults into runs in which no suite file serves two faults (first fit, faults with the most files first). */
function inWaves(proved: Proved[]): Proved[][] {
  const waves: { faults: Proved[]; files: Set<string> }[] = [];
  for (const p of [...proved].sort((a, b) => b.files.length - a.files.length)) {
    const wave = waves.find((w) => p.files.every((f) => !w.files.has(f)));
    if (wave) {
      wave.faults.push(p);
      for (const f of p.files) wave.files.add(f);
    } else waves.push({ faults: [p], files: new Set(p.files) });
  }
  return waves.map((w) => w.faults);
}

function rowOf(fault: FaultName, verdicts: RuleVerdict[], durationMs: number): FaultRow {
  const rules = FAULTS[fault].rules as readonly RuleId[];
  const deployedOnly = 'deployedOnly' in FAULTS[fault];
  const mustFailures = deployedOnly ? verdicts.filter((v) => v.level === 'MUST' && v.verdict === 'fail').map((v) => v.id as RuleId) : [];
  return {
    fault,
    description: FAULTS[fault].description,
    rules: rules.map((id) => ({
      id,
      level: requirement(id).level,
      verdict: LOAD_VERIFIED_RULES.includes(id) ? 'load-harness' : (verdicts.find((v) => v.id === id)?.verdict ?? 'not-verified'),
    })),
    killed: rules.every((id) => LOAD_VERIFIED_RULES.includes(id) || caught(verdicts.find((v) => v.id === id))) && mustFailures.length === 0,
    ...(deployedOnly ? { mustFailures } : {}),
    durationMs,
  };
}

function logged(row: FaultRow, log: (line: string) => void): FaultRow {
  const mustNote = row.mustFailures ? (row.mustFailures.length === 0 ? '  (no MUST rule failed)' : `  but MUST rule(s) failed: ${row.mustFailures.join(', ')}`) : '';
  log(`  ${row.killed ? '✓ killed  ' : '✗ SURVIVED'} ${row.fault.padEnd(34)} ${row.rules.map((r) => `${r.id}=${r.verdict}`).join(' ')}${mustNote}`);
  return row;
}

async function proveByFuzz(fault: FaultName, fuzz: FuzzProver | undefined): Promise<FaultRow> {
  const started = Date.now();
  const rules = FAULTS[fault].rules as readonly RuleId[];
  const { broken, evidence } = fuzz ? await fuzz.withFault(fault) : { broken: [], evidence: ['no fuzz prover was given to the fault proof'] };
  return {
    fault,
    description: FAULTS[fault].description,
    rules: rules.map((id) => ({ id, level: requirement(id).level, verdict: broken.includes(id) ? 'fail' : 'not-verified' })),
    killed: rules.every((id) => broken.includes(id)),
    durationMs: Date.now() - started,
    provenBy: 'fuzz',
    evidence,
  };
}

/** Killed when `conformance diff` shows a difference at exactly the place the catalog names. */
async function proveByDiff(fault: FaultName, diff: DiffProver | undefined): Promise<FaultRow> {
  const started = Date.now();
  const drift = (FAULTS[fault] as { drift?: string }).drift ?? '(no drift named)';
  const shown = diff ? await diff.withFault(fault) : [];
  const at = shown.filter((d) => d.startsWith(`${drift}:`));
  return {
    fault,
    description: FAULTS[fault].description,
    rules: [],
    killed: at.length > 0,
    durationMs: Date.now() - started,
    provenBy: 'diff',
    evidence: diff ? (at.length > 0 ? at : shown) : ['no diff prover was given to the fault proof'],
  };
}

/** A MUST rule is caught by `fail`, or by `warn` when what broke is a SHOULD-level case of it (AUTH-03's bare key). */
function caught(verdict: RuleVerdict | undefined): boolean {
  if (!verdict) return false;
  if (verdict.verdict === 'fail') return verdict.level === 'MUST';
  if (verdict.verdict === 'warn') return verdict.level !== 'MUST' || verdict.tests.some((t) => t.status === 'failed' && t.level === 'SHOULD');
  return false;
}
