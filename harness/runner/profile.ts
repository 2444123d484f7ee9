// Settings (+ the embedded reference, when no target is given) → the TargetProfile every test receives.
import { randomBytes } from 'node:crypto';
import type { Settings } from '../../config/settings.ts';
import type { TargetProfile } from '../target-profile.ts';
import type { EmbeddedTarget } from './embedded-target.ts';

export function toProfile(settings: Settings, embedded: EmbeddedTarget | undefined, skips: Record<string, string> = {}): TargetProfile {
  const { target } = settings;
  // A target that declares no regional endpoint has none, not even the embedded reference's.
  const regional = settings.features.regionalEndpoint !== false ? (target.regionalBaseUrl ?? embedded?.reference.regionalBaseUrl) : undefined;
  const keys = embedded?.keys ?? {
    primary: target.apiKey!,
    ...(target.secondaryApiKey ? { secondary: target.secondaryApiKey } : {}),
    ...(target.restrictedApiKey ? { restricted: target.restrictedApiKey } : {}),
  };
  const acceptableBridgeUrls = settings.bridge.acceptableUrls ?? embedded?.acceptableBridgeUrls;
  return {
    baseUrl: (target.baseUrl ?? embedded!.reference.baseUrl).replace(/\/$/, ''),
    ...(regional ? { regionalBaseUrl: regional.replace(/\/$/, '') } : {}),
    keys,
    // the embedded reference listens on this machine: a corporate proxy is not on its way
    ...(embedded === undefined ? { network: settings.network } : {}),
    features: settings.features,
    timeouts: settings.timeouts,
    limits: settings.limits,
    runPrefix: `cft-${randomBytes(3).toString('hex')}`,
    rules: settings.run.rules,
    ...(acceptableBridgeUrls ? { acceptableBridgeUrls } : {}),
    embeddedReference: embedded !== undefined,
    readOnly: settings.run.readOnly,
    noDrain: settings.run.noDrain,
    longChecks: settings.run.longChecks,
    transportRetries: settings.run.transportRetries,
    skips,
  };
}
