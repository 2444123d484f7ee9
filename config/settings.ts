// The resolved, validated settings of one run: the only shape the rest of the harness sees.
import { availableParallelism } from 'node:os';

export interface TargetSettings {
  /** Base URL of the implementation under test; absent means "start the embedded reference". */
  baseUrl?: string;
  /** The regional alternative base address (VER-02), when the target has one. */
  regionalBaseUrl?: string;
  apiKey?: string;
  /** A key of another environment of the same organization (AUTH-05). */
  secondaryApiKey?: string;
  /** A key that authenticates but may not write (AUTH-04). */
  restrictedApiKey?: string;
  /** A container image of the candidate, started with testcontainers instead of a running baseUrl. */
  image?: string;
  /** The port the image serves HTTP on (default 3000). */
  imagePort?: number;
  /** Environment variables for the container. */
  imageEnv?: Record<string, string>;
  /** Path polled until the container answers HTTP (default /v1/environments; any status counts). */
  waitPath?: string;
}

/** Which configured key a request carries; `none` sends no Authorization header. */
export type Identity = 'primary' | 'secondary' | 'restricted' | 'none';

/** The target's API keys by identity. */
export interface TargetKeys {
  primary: string;
  secondary?: string;
  restricted?: string;
}

export interface FeatureSettings {
  idempotency: boolean;
  rateLimiting: boolean;
  /** false: the deployment has no regional base address, so VER-02 is not applicable (declared, not assumed). */
  regionalEndpoint?: boolean;
}

export interface TimeoutSettings {
  /** Per-request bound: connect, headers and body together. */
  requestMs: number;
  /** How long eventually() polls for an asynchronous effect. */
  eventuallyMs: number;
  /** How long a test waits before concluding that something did NOT happen. */
  settleMs: number;
  /** Upper bound for a single test. */
  testMs: number;
  /** Upper bound for the whole run. */
  runMs: number;
  /** Longest Retry-After a functional test honours before giving up. */
  maxRetryAfterS: number;
}

export interface LimitSettings {
  /** The documented trigger limit in requests per second (RL-05). */
  triggerRps: number;
}

export interface BridgeSettings {
  /** Public https bridgeUrls the target's operator names as acceptable (TRIG-01); absent: that test is not verified. */
  acceptableUrls?: string[];
}

export interface ReferenceSettings {
  /** Faults switched on in the embedded reference (only without a target). */
  faults: string[];
}

export interface RunSettings {
  reportDir: string;
  /** Only these rule IDs run; empty means all. */
  rules: string[];
  /** Only checks that change nothing on the target (no POST/PATCH/PUT/DELETE). */
  readOnly: boolean;
  /** No test exhausts a rate-limit bucket of the target (shared staging: others are not throttled). */
  noDrain: boolean;
  /** Also the checks that wait on the target's clock (IDEM-02's 25 s repeat): off by default, they make a run long. */
  longChecks: boolean;
  /** A YAML baseline of known gaps (see harness/expectations). */
  expectations?: string;
  /** Run the suites this many times and report every rule whose verdict changed. */
  repeat: number;
  /** A `conformance load` run follows and merges its verdicts: rules only it verifies (RL-05) do not fail the exit code. */
  loadFollows: boolean;
  /** How often a test that met a transport fault (reset, refused, no answer in time) runs again from the start. */
  transportRetries: number;
  /** Worker threads that run the suite files (the tests wait on the network; a small or shared machine may want fewer). */
  workers: number;
}

/** How requests reach the target: proxies (HTTP_PROXY, HTTPS_PROXY, NO_PROXY), a private CA, a client certificate, extra headers. */
export interface NetworkSettings {
  /** Proxy for http:// targets (HTTP_PROXY / http_proxy); absent: direct. */
  httpProxy?: string;
  /** Proxy for https:// targets (HTTPS_PROXY / https_proxy); absent: httpProxy. */
  httpsProxy?: string;
  /** Hosts reached directly (NO_PROXY / no_proxy): comma-separated names, `.suffix`, `host:port`, `*`. */
  noProxy?: string;
  /** PEM file of CA certificates trusted in addition to the system's (--ca-file). */
  caFile?: string;
  /** PEM client certificate and its key (--client-cert, --client-key) for targets that ask for one. */
  clientCert?: string;
  clientKey?: string;
  /** Headers sent on every request (--header NAME=VALUE): a gateway's tenant, a WAF token. Values are redacted like keys. */
  headers?: Record<string, string>;
}

export interface Settings {
  target: TargetSettings;
  network: NetworkSettings;
  features: FeatureSettings;
  timeouts: TimeoutSettings;
  limits: LimitSettings;
  bridge: BridgeSettings;
  reference: ReferenceSettings;
  run: RunSettings;
}

/**
 * One suite worker per core, at least 3 and at most 4: the functional suites mostly wait on the target (settling,
 * polling), and once their requests no longer pause for the configuration bucket a third worker fills those waits —
 * on this project's 2-core machine, busy, 3 workers ran the functional suites in 6.8–8.2 s against 2 workers' 9.0–10.2 s
 * (whole run 15.6–18.2 s against 17.5–20.7 s, four runs each, interleaved).
 */
const DEFAULT_WORKERS = Math.min(4, Math.max(3, availableParallelism()));

export const DEFAULT_SETTINGS: Settings = {
  target: {},
  network: {},
  features: { idempotency: true, rateLimiting: true, regionalEndpoint: true },
  timeouts: {
    requestMs: 10_000,
    eventuallyMs: 5_000,
    settleMs: 300,
    testMs: 60_000,
    runMs: 15 * 60_000,
    maxRetryAfterS: 10,
  },
  limits: { triggerRps: 600 },
  bridge: {},
  reference: { faults: [] },
  run: { reportDir: 'reports', rules: [], readOnly: false, noDrain: false, longChecks: false, repeat: 1, loadFollows: false, transportRetries: 2, workers: DEFAULT_WORKERS },
};
