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

/** The prefix of a SHOULD failure's message in Allure, where it is shown as "broken", never as failed. */
export const WARNING_PREFIX = 'Warning (SHOULD-level: does not make the target non-conformant): ';

/**
 * A failed SHOULD-level result as Allure should show it: a warning. Allure has no warning status; "broken" is the one it
 * counts apart from the failures, so a report's red count is the MUST failures alone, as in conformance.json.
 */
export function asWarning<R extends { status?: string; labels?: Label[]; statusDetails?: { message?: string } }>(result: R): R {
  const should = result.labels?.some((l) => l.name === 'level' && l.value === 'SHOULD') ?? false;
  if (!should || result.status !== 'failed') return result;
  const message = result.statusDetails?.message ?? '';
  return { ...result, status: 'broken', statusDetails: { ...result.statusDetails, message: `${WARNING_PREFIX}${message}` } };
}

/** A writer that shows each SHOULD failure as a warning (see asWarning) before it hands the result on. */
export function warningWriter<W extends { writeResult(result: never): void }>(inner: W): W {
  return new Proxy(inner, {
    get: (target, name, receiver) =>
      name === 'writeResult' ? (result: Parameters<typeof asWarning>[0]) => target.writeResult(asWarning(result) as never) : Reflect.get(target, name, receiver),
  });
}
