// Which suite files a selection of rules needs — one answer for `run --rules` and for the fault proof.
// A rule's own tests are those that name it; a rule checked on every exchange (passive checks, response schemas)
// is exercised by every test's traffic as well.
import { CLIENT_CHECKED_RULES } from '../checks/client-check-rules.ts';
import { EVERY_EXCHANGE_CHECKS } from '../checks/schema-checks.ts';

export const CHECKED_ON_EVERY_EXCHANGE: ReadonlySet<string> = new Set([...EVERY_EXCHANGE_CHECKS.map((c) => c.rule), ...CLIENT_CHECKED_RULES]);

/**
 * `complete` (run --rules): a rule checked on every exchange gets the traffic of every functional suite, so its
 * verdict is the one the full run gives. `shortest` (the fault proof, which only needs to see the rule fail): its own
 * tests where it has any, every functional suite's traffic only where it has none.
 */
export type SelectionScope = 'complete' | 'shortest';

export interface SuiteFile {
  /** The file's source, searched for the rule IDs its tests name. */
  source: string;
  /** A rate-limit suite of the serial phase: run only when it names a selected rule (its traffic drains buckets). */
  serial: boolean;
}

export interface SuiteSelection<F extends SuiteFile> {
  files: F[];
  /** Tests of other rules in these files run too, for their traffic; their own verdicts are not reported. */
  forTraffic: boolean;
}

export function selectSuites<F extends SuiteFile>(rules: readonly string[], files: readonly F[], scope: SelectionScope): SuiteSelection<F> {
  if (rules.length === 0) return { files: [...files], forTraffic: false };
  const names = (file: F, id: string) => file.source.includes(`'${id}'`);
  const forTraffic = rules.some((id) => CHECKED_ON_EVERY_EXCHANGE.has(id) && (scope === 'complete' || !files.some((f) => names(f, id))));
  return { files: files.filter((f) => rules.some((id) => names(f, id)) || (forTraffic && !f.serial)), forTraffic };
}
