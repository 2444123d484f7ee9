import type { AREAS } from './areas.ts';

export type RequirementLevel = 'MUST' | 'SHOULD' | 'INFO';
export type RequirementArea = keyof typeof AREAS;

/** One rule of the catalog, as RULES.md states it, with what the suite knows about how it can be observed. */
export interface CatalogEntry {
  level: RequirementLevel;
  area: RequirementArea;
  section: string;
  text: string;
  /** The rule speaks of a response only the target decides to send (a 500, a 503): a run can only observe it when it happens. */
  observableOnlyWhenItHappens?: true;
  /** Verified by `conformance load` (sustained request rates), not by the functional suites. */
  verifiedBy?: 'load';
}
