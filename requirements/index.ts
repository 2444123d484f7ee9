// Public face of the catalog: typed rule IDs and lookups. Rule IDs come from catalog.ts only.
import { AREAS } from './areas.ts';
import { CATALOG } from './catalog.ts';
import type { CatalogEntry, RequirementArea, RequirementLevel } from './types.ts';

export { AREAS, CATALOG };
export type { CatalogEntry, RequirementArea, RequirementLevel };

/** A rule ID of RULES.md; naming any other string is a compile error. */
export type RuleId = keyof typeof CATALOG;

export interface Requirement extends CatalogEntry {
  id: RuleId;
}

export const RULE_IDS = Object.freeze(Object.keys(CATALOG) as RuleId[]);

export const REQUIREMENTS: readonly Requirement[] = Object.freeze(
  RULE_IDS.map((id) => Object.freeze({ id, ...CATALOG[id] })),
);

export function isRuleId(value: string): value is RuleId {
  return Object.prototype.hasOwnProperty.call(CATALOG, value);
}

export function requirement(id: RuleId): Requirement {
  return { id, ...CATALOG[id] };
}

/** MUST rules a run can only observe when the target happens to answer that way: excepted from completeness. */
export const OBSERVED_ONLY_WHEN_THEY_HAPPEN: readonly RuleId[] = REQUIREMENTS.filter((r) => r.observableOnlyWhenItHappens).map((r) => r.id);

/** Rules `conformance load` verifies; the functional suites leave them not-verified. */
export const LOAD_VERIFIED_RULES: readonly RuleId[] = REQUIREMENTS.filter((r) => r.verifiedBy === 'load').map((r) => r.id);

/** Spec interface version the catalog was written against. */
export const SPEC_VERSION = '3.19.2';
