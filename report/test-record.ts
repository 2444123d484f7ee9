// One finished conformance test as the runner saw it: the input of verdicts and reports.
import type { Leak } from '../harness/conformance/cleanup.ts';
import type { Observation, SkipOutcome } from '../harness/conformance/meta.ts';

export interface TestRecord {
  name: string;
  file: string;
  rules: string[];
  level?: 'SHOULD';
  state: 'passed' | 'failed' | 'skipped';
  outcome?: SkipOutcome;
  reason?: string;
  durationMs: number;
  message?: string;
  observations: Observation[];
  evidence: string[];
  leaks: Leak[];
  notes: string[];
}
