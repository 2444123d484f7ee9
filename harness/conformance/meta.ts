import type { BucketUses } from './buckets.ts';

// What a conformance test reports beyond pass/fail; travels from the worker to the reporter in task.meta.
import type { Leak, Observation, SkipOutcome } from '../../report/test-record.ts';

export interface ConformanceMeta {
  rules: string[];
  /** Set when the test checks a SHOULD-level case of a MUST rule: its failure is a warning. */
  level?: 'SHOULD';
  outcome?: SkipOutcome;
  reason?: string;
  observations?: Observation[];
  /** Redacted accounts of the last exchanges of a failed test, each with a reproducer. */
  evidence?: string[];
  /** What the test observed without judging it (INFO), shown with its result. */
  notes?: string[];
  /** Resources the test created but could not remove. */
  leaks?: Leak[];
  /** Set when a try met a transport fault: how many tries ran, and each fault met (the test ran again from the start). */
  transport?: { tries: number; faults: string[] };
}

declare module '@vitest/runner' {
  interface TaskMeta {
    conformance?: ConformanceMeta;
    /** How a test uses the target's buckets: it runs under the runner's bucket plan. */
    buckets?: BucketUses;
    /** When the buckets a suite file exhausted are full again (epoch ms; RefillGate). */
    bucketsFullAt?: number;
  }
}
