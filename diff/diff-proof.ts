// The fault proof's view of `conformance diff`: a drift fault must show as a difference at the place the catalog
// names, between a reference with the fault and a clean one; two clean references must show none.
import { randomBytes } from 'node:crypto';
import type { FaultName } from '../reference/index.ts';
import type { Settings } from '../config/settings.ts';
import type { DiffProver } from '../harness/runner/fault-proof.ts';
import { startEmbeddedTarget } from '../harness/runner/embedded-target.ts';
import { toProfile } from '../harness/runner/profile.ts';
import { compare, runSequence, type DiffResult } from './run-diff.ts';

/** Diffs a reference with `faults` (the candidate) against a clean one, both embedded. */
export async function diffEmbedded(settings: Settings, faults: FaultName[]): Promise<DiffResult> {
  const runPrefix = `cfd-${randomBytes(3).toString('hex')}`;
  const clean = await startEmbeddedTarget([]);
  const faulty = await startEmbeddedTarget(faults);
  try {
    const reference = await runSequence({ ...toProfile(settings, clean), runPrefix });
    const candidate = await runSequence({ ...toProfile(settings, faulty), runPrefix });
    return compare(reference, candidate);
  } finally {
    await clean.reference.close();
    await faulty.reference.close();
  }
}

export function diffProver(settings: Settings): DiffProver {
  const lines = (r: DiffResult) => r.differences.map((d) => `${d.operation} ${d.path}: reference ${JSON.stringify(d.reference)}, candidate ${JSON.stringify(d.candidate)}`);
  return {
    clean: async () => lines(await diffEmbedded(settings, [])),
    withFault: async (fault) => lines(await diffEmbedded(settings, [fault])),
  };
}
