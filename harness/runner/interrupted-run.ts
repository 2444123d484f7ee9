// What an interrupted run reports: the verdicts so far, rules no test reached marked as such, and what it did.
import type { RuleVerdict } from '../../report/verdicts.ts';
import type { TargetProfile } from '../target-profile.ts';
import type { SuiteRun } from './run-suites.ts';

const NO_TEST = 'no test exercised this rule';

/** A rule no test reached before the stop is not-verified because of it, not because the suite has no test for it. */
export function markNotReached(verdicts: RuleVerdict[], cause: string): RuleVerdict[] {
  return markCutOff(verdicts, `interrupted (${cause}) before any test of this rule ran`);
}

/** The rules no test reached (or finished) before the stop read why: `reason`. */
export function markCutOff(verdicts: RuleVerdict[], reason: string): RuleVerdict[] {
  return verdicts.map((v) => (v.verdict === 'not-verified' && v.reason === NO_TEST ? { ...v, reason } : v));
}

/** The run error that keeps an interrupted run from reading as complete. */
export function interruptionError(cause: string, run: SuiteRun | undefined): string {
  const finished = run?.records.filter((r) => r.outcome !== 'deselected' && !r.reason?.startsWith('interrupted')).length ?? 0;
  const abandoned = run?.abandoned?.length ? `; ${run.abandoned.length} test(s) still running were abandoned after the grace period` : '';
  return `the run was interrupted (${cause}) after ${finished} test(s) finished${abandoned}; tests that had not started are not verified`;
}

/** The line that says what an interrupted run did before it reports. */
export function interruptedSummary(run: SuiteRun, sweep: { removed: string[]; remaining: string[] }, profile: TargetProfile): string {
  const counted = run.records.filter((r) => r.outcome !== 'deselected');
  const notStarted = counted.filter((r) => r.reason?.startsWith('interrupted')).length;
  const left = sweep.remaining.length > 0 ? `${sweep.remaining.length} could not be removed (LEAK lines above)` : `nothing carrying the run prefix ${profile.runPrefix} is known to remain`;
  return `Stopped: ${counted.length - notStarted} test(s) finished, ${notStarted} did not start${run.abandoned?.length ? `, ${run.abandoned.length} abandoned while running` : ''}; final sweep removed ${sweep.removed.length} leftover resource(s), ${left}. Writing every report with summary.interrupted: true.`;
}

/** What may be left on the target if the process ended now. */
export function leftoversOf(profile: TargetProfile, running: string[]): string[] {
  const where = `resources whose names carry the run prefix ${profile.runPrefix} on ${profile.baseUrl}`;
  return running.length > 0 ? [`${where}, created by the tests still running:`, ...running.map((name) => `  ${name}`)] : [`${where} that a test created and had not yet removed`];
}
