// Environment variables the harness understands, each mapped to one setting path.
export const ENV_VARS = {
  CONFORMANCE_TARGET: 'target.baseUrl',
  CONFORMANCE_REGIONAL_TARGET: 'target.regionalBaseUrl',
  CONFORMANCE_API_KEY: 'target.apiKey',
  CONFORMANCE_SECONDARY_API_KEY: 'target.secondaryApiKey',
  CONFORMANCE_RESTRICTED_API_KEY: 'target.restrictedApiKey',
  CONFORMANCE_FEATURE_IDEMPOTENCY: 'features.idempotency',
  CONFORMANCE_FEATURE_RATE_LIMITING: 'features.rateLimiting',
  CONFORMANCE_FEATURE_REGIONAL_ENDPOINT: 'features.regionalEndpoint',
  CONFORMANCE_REQUEST_TIMEOUT_MS: 'timeouts.requestMs',
  CONFORMANCE_RUN_TIMEOUT_MS: 'timeouts.runMs',
  CONFORMANCE_TRIGGER_RPS: 'limits.triggerRps',
  CONFORMANCE_REPORT_DIR: 'run.reportDir',
  CONFORMANCE_WORKERS: 'run.workers',
  CONFORMANCE_TRANSPORT_RETRIES: 'run.transportRetries',
  CONFORMANCE_CA_FILE: 'network.caFile',
  CONFORMANCE_CLIENT_CERT: 'network.clientCert',
  CONFORMANCE_CLIENT_KEY: 'network.clientKey',
} as const;

/** The proxy variables curl, k6 and Newman read, each with its lower-case form first (the form curl prefers). */
export const PROXY_ENV_VARS = {
  'network.httpProxy': ['http_proxy', 'HTTP_PROXY'],
  'network.httpsProxy': ['https_proxy', 'HTTPS_PROXY'],
  'network.noProxy': ['no_proxy', 'NO_PROXY'],
} as const;

/** Names the config file; the `--config` flag wins over it. */
export const CONFIG_FILE_ENV_VAR = 'CONFORMANCE_CONFIG';

/** Where each secret comes from, for reproducer commands that must not contain the secret itself. */
export const SECRET_PLACEHOLDERS = {
  apiKey: 'CONFORMANCE_API_KEY',
  secondaryApiKey: 'CONFORMANCE_SECONDARY_API_KEY',
  restrictedApiKey: 'CONFORMANCE_RESTRICTED_API_KEY',
} as const;
