// The fault proof's view of the fuzzer: each fuzz-only fault must be found by the DEFAULT seed and budget on the
// operations whose rule it breaks, and the clean reference must give no finding there.
import { FAULTS, type FaultName } from '../reference/index.ts';
import type { RuleId } from '../requirements/index.ts';
import type { Settings } from '../config/settings.ts';
import { startEmbeddedTarget } from '../harness/runner/embedded-target.ts';
import type { FuzzProver } from '../harness/runner/fault-proof.ts';
import { toProfile } from '../harness/runner/profile.ts';
import { DEFAULT_BUDGET, DEFAULT_SEED, runFuzz, type Finding } from './run-fuzz.ts';
import { FUZZ_TARGETS } from './targets.ts';

export function fuzzProver(settings: Settings): FuzzProver {
  const operationsOf = (faults: FaultName[]) => {
    const rules = new Set<string>(faults.flatMap((f) => [...FAULTS[f].rules]));
    return FUZZ_TARGETS.filter((t) => rules.has(t.rule)).map((t) => t.id);
  };
  const fuzz = async (faults: FaultName[], operations: string[]): Promise<Finding[]> => {
    const embedded = await startEmbeddedTarget(faults);
    try {
      const result = await runFuzz(toProfile(settings, embedded), { seed: DEFAULT_SEED, budget: DEFAULT_BUDGET, operations, log: () => undefined });
      return result.findings;
    } finally {
      await embedded.reference.close();
    }
  };
  const line = (f: Finding) => `${f.rule} ${f.operation} (${f.mode}): ${f.message} — ${f.request.method} ${f.request.path} ${JSON.stringify(f.request.body ?? f.request.query ?? '').slice(0, 300)}`;
  return {
    clean: async (faults) => (await fuzz([], operationsOf(faults))).map(line),
    withFault: async (fault) => {
      const rules = FAULTS[fault].rules as readonly RuleId[];
      const found = (await fuzz([fault], operationsOf([fault]))).filter((f) => f.level === 'error' && (rules as readonly string[]).includes(f.rule));
      return { broken: rules.filter((r) => found.some((f) => f.rule === r)), evidence: found.map(line) };
    },
  };
}
