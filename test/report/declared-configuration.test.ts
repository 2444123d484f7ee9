// The declared configuration is stated on every report, in words a vendor can check against what it runs.
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { declaredConfiguration, describeDeclared } from '../../report/declared-configuration.ts';

describe('declared configuration', () => {
  it('comes from features.* and limits.triggerRps', () => {
    expect(declaredConfiguration(DEFAULT_SETTINGS)).toEqual({ idempotency: true, rateLimiting: true, triggerRps: 600, regionalEndpoint: true });
    const off = { ...DEFAULT_SETTINGS, features: { idempotency: false, rateLimiting: false }, limits: { triggerRps: 6000 } };
    expect(declaredConfiguration(off)).toEqual({ idempotency: false, rateLimiting: false, triggerRps: 6000 });
  });

  it('says what each declaration means for the verdicts', () => {
    expect(describeDeclared({ idempotency: true, rateLimiting: true, triggerRps: 600 })).toBe("idempotency on · rate limiting on · trigger limit 600/s (the spec's figure)");
    expect(describeDeclared({ idempotency: false, rateLimiting: false, triggerRps: 60 })).toBe(
      'idempotency off (IDEM rules not applicable) · rate limiting off (RL rules not applicable) · trigger limit 60/s (a plan of the deployed service; RL-05 is judged at this rate)',
    );
    expect(describeDeclared({ idempotency: true, rateLimiting: true, triggerRps: 750 })).toContain('not a plan of the deployed service (60, 600, 6000/s)');
    expect(describeDeclared({ idempotency: true, rateLimiting: true, triggerRps: 600, regionalEndpoint: false })).toContain('no regional endpoint (VER-02 not applicable)');
    expect(describeDeclared({ idempotency: true, rateLimiting: true, triggerRps: 600, regionalEndpoint: true })).not.toContain('regional');
  });
});
