// The Allure labels and description of a test, from the rules it names: shared by the vitest reporter (suite tests)
// and the load merge (load tests), so both kinds of result are grouped the same way in the Allure report.
import type { Label } from 'allure-js-commons';
import type { RuntimeMessage } from 'allure-js-commons/sdk';
import { AREAS, isRuleId, requirement } from '../requirements/index.ts';

const SEVERITY = { MUST: 'critical', SHOULD: 'normal', INFO: 'minor' } as const;

export function metadataMessage(rules: string[], level: 'SHOULD' | undefined, reason: string | undefined): RuntimeMessage {
  const known = rules.filter(isRuleId).map(requirement);
  const labels: Label[] = [];
  for (const rule of known) {
    labels.push({ name: 'epic', value: `${rule.area}: ${AREAS[rule.area].replaceAll('`', '')}` });
    labels.push({ name: 'feature', value: `${rule.id} (${rule.level})` });
    labels.push({ name: 'rule', value: rule.id });
    labels.push({ name: 'tag', value: rule.id });
  }
  const testLevel = level ?? known[0]?.level ?? 'MUST';
  labels.push({ name: 'level', value: testLevel }, { name: 'severity', value: SEVERITY[testLevel] });
  const description = [
    ...known.map((r) => `**${r.id}** (${r.level}, spec § ${r.section}): ${r.text}`),
    ...(level ? [`This case is SHOULD-level: its failure is a warning.`] : []),
    ...(reason ? [`Not run: ${reason}`] : []),
  ].join('\n\n');
  return { type: 'metadata', data: { labels, description } };
}
