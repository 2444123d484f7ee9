// What the target declares it runs (RULES.md "Deployed configurations a target may declare"): printed on every
// report — terminal, conformance.json, conformance.html — never silently assumed.
import type { FeatureSettings, LimitSettings } from '../config/settings.ts';

export interface DeclaredConfiguration {
  /** features.idempotency: false makes IDEM-* not applicable. */
  idempotency: boolean;
  /** features.rateLimiting: false makes RL-* not applicable. */
  rateLimiting: boolean;
  /** limits.triggerRps: the rate RL-05 is judged at. */
  triggerRps: number;
  /** features.regionalEndpoint: false makes VER-02 not applicable (absent in reports of older versions: true). */
  regionalEndpoint?: boolean;
}

/** The trigger limits of the deployed service's plans; 600/s is the figure the spec states. */
export const TRIGGER_PLANS = [60, 600, 6000] as const;
export const SPEC_TRIGGER_RPS = 600;

export function declaredConfiguration(settings: { features: FeatureSettings; limits: LimitSettings }): DeclaredConfiguration {
  return {
    idempotency: settings.features.idempotency,
    rateLimiting: settings.features.rateLimiting,
    triggerRps: settings.limits.triggerRps,
    regionalEndpoint: settings.features.regionalEndpoint,
  };
}

/** One line: `idempotency on · rate limiting on · trigger limit 600/s (the spec's figure)`. */
export function describeDeclared(d: DeclaredConfiguration): string {
  return [
    `idempotency ${d.idempotency ? 'on' : 'off (IDEM rules not applicable)'}`,
    `rate limiting ${d.rateLimiting ? 'on' : 'off (RL rules not applicable)'}`,
    `trigger limit ${d.triggerRps}/s (${triggerNote(d.triggerRps)})`,
    ...(d.regionalEndpoint === false ? ['no regional endpoint (VER-02 not applicable)'] : []),
  ].join(' · ');
}

function triggerNote(rps: number): string {
  if (rps === SPEC_TRIGGER_RPS) return "the spec's figure";
  if ((TRIGGER_PLANS as readonly number[]).includes(rps)) return 'a plan of the deployed service; RL-05 is judged at this rate';
  return `not a plan of the deployed service (${TRIGGER_PLANS.join(', ')}/s); RL-05 is judged at this rate`;
}
