// What a test knows about the target: handed from the runner to every worker through vitest's provide/inject.
import type { FeatureSettings, LimitSettings, NetworkSettings, TargetKeys, TimeoutSettings } from '../config/settings.ts';

export interface TargetProfile {
  baseUrl: string;
  regionalBaseUrl?: string;
  keys: TargetKeys;
  /** Proxies, CA, client certificate and extra headers on the way to a given target (never to the embedded reference). */
  network?: NetworkSettings;
  features: FeatureSettings;
  timeouts: TimeoutSettings;
  limits: LimitSettings;
  /** Every resource the run creates starts with this, so cleanup and leak audits can find it. */
  runPrefix: string;
  /** Rule IDs selected for this run (empty: all). */
  rules: string[];
  /** Tests of unselected rules run anyway, for the traffic a selected rule checked on every exchange is judged on. */
  runForTraffic?: boolean;
  /** Exists once the run is being stopped; holds the reason a test that starts after that ends not verified with. */
  stopFile?: string;
  /** Public https bridgeUrls the target accepts (bridge.acceptableUrls; the embedded reference's own list). */
  acceptableBridgeUrls?: readonly string[];
  /** True when the target is the embedded reference started by this run. */
  embeddedReference: boolean;
  /** No request may change anything on the target (--read-only). */
  readOnly: boolean;
  /** No test may exhaust a rate-limit bucket of the target (--no-drain). */
  noDrain: boolean;
  /** The checks that wait on the target's clock run too (--long-checks). */
  longChecks: boolean;
  /** How often a test that met a transport fault runs again from the start (run.transportRetries). */
  transportRetries: number;
  /** Rule IDs or test names an expectations file says not to run, with the reason. */
  skips: Record<string, string>;
}
