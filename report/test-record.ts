// One finished conformance test as the runner saw it: the input of verdicts and reports.
import type { Identity } from '../config/settings.ts';

export type SkipOutcome = 'not-verified' | 'not-applicable' | 'deselected';

/** What a passive check saw across the exchanges of one test. */
export interface Observation {
  rule: string;
  checked: number;
  violations: string[];
}

/** A resource a test created but could not remove. */
export interface Leak {
  label: string;
  error: string;
  /** A DELETE that would remove it, for the final sweep. */
  retry?: { path: string; as: Identity; regional?: boolean };
}

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
  /** The test met transport faults and ran again from the start: how many tries, and each fault (redacted). */
  transport?: TransportRetries;
}

export interface TransportRetries {
  tries: number;
  faults: string[];
}
