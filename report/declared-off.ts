// Rules a target's declaration takes out (RULES.md "Deployed configurations"): one place, read by the test wrapper
// (before a test runs) and by the verdicts (a rule with no test of its own).
import type { FeatureSettings } from '../config/settings.ts';

interface RuleRef {
  id: string;
  area: string;
}

/** Why the target's declaration makes this rule not applicable, or undefined when it applies. */
export function declaredOff(rule: RuleRef, features: Partial<FeatureSettings>): string | undefined {
  if (rule.area === 'IDEM' && features.idempotency === false) return 'the target declares idempotency off (features.idempotency)';
  if (rule.area === 'RL' && features.rateLimiting === false) return 'the target declares rate limiting off (features.rateLimiting)';
  if (rule.id === 'VER-02' && features.regionalEndpoint === false) return 'the target declares no regional endpoint (features.regionalEndpoint, --no-regional-endpoint)';
  return undefined;
}

/** The declarations that took rules out, one line each, for the certification and the summary. */
export function declarationNotes(features: Partial<FeatureSettings>): string[] {
  return [
    features.idempotency === false ? 'declared: idempotency off (IDEM-* not applicable)' : '',
    features.rateLimiting === false ? 'declared: rate limiting off (RL-* not applicable)' : '',
    features.regionalEndpoint === false ? 'declared: no regional endpoint (VER-02 not applicable)' : '',
  ].filter(Boolean);
}
