// Public face of the catalog: typed rule IDs and lookups. Rule IDs come from catalog.ts only.
import { AREAS } from './areas.ts';
import { CATALOG } from './catalog.ts';
import type { RequirementArea, RequirementLevel } from './types.ts';

export { AREAS, CATALOG };
export type { RequirementArea, RequirementLevel };

/** A rule ID of RULES.md; naming any other string is a compile error. */
export type RuleId = keyof typeof CATALOG;

export interface Requirement {
  id: RuleId;
  level: RequirementLevel;
  area: RequirementArea;
  section: string;
  text: string;
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

/** Spec interface version the catalog was written against. */
export const SPEC_VERSION = '3.19.2';
