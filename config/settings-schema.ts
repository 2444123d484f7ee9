// JSON Schema of a configuration file (and of the merged settings): unknown keys are errors, so typos surface.

const positiveInt = { type: 'integer', minimum: 1 } as const;
const url = { type: 'string', pattern: '^https?://[^\\s]+$' } as const;
const key = { type: 'string', minLength: 1 } as const;

export const settingsSchema = {
  $id: 'conformance-settings',
  type: 'object',
  additionalProperties: false,
  properties: {
    target: {
      type: 'object',
      additionalProperties: false,
      properties: {
        baseUrl: url,
        regionalBaseUrl: url,
        apiKey: key,
        secondaryApiKey: key,
        restrictedApiKey: key,
        image: { type: 'string', minLength: 1 },
        imagePort: { type: 'integer', minimum: 1, maximum: 65535 },
        imageEnv: { type: 'object', additionalProperties: { type: 'string' } },
        waitPath: { type: 'string', pattern: '^/' },
      },
    },
    network: {
      type: 'object',
      additionalProperties: false,
      properties: {
        httpProxy: { type: 'string' },
        httpsProxy: { type: 'string' },
        noProxy: { type: 'string' },
        caFile: { type: 'string', minLength: 1 },
        clientCert: { type: 'string', minLength: 1 },
        clientKey: { type: 'string', minLength: 1 },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
      },
    },
    features: {
      type: 'object',
      additionalProperties: false,
      properties: { idempotency: { type: 'boolean' }, rateLimiting: { type: 'boolean' }, regionalEndpoint: { type: 'boolean' } },
    },
    timeouts: {
      type: 'object',
      additionalProperties: false,
      properties: {
        requestMs: positiveInt,
        eventuallyMs: positiveInt,
        settleMs: { type: 'integer', minimum: 0 },
        testMs: positiveInt,
        runMs: positiveInt,
        maxRetryAfterS: { type: 'integer', minimum: 0 },
      },
    },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: { triggerRps: positiveInt },
    },
    bridge: {
      type: 'object',
      additionalProperties: false,
      properties: { acceptableUrls: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } } },
    },
    reference: {
      type: 'object',
      additionalProperties: false,
      properties: { faults: { type: 'array', items: { type: 'string' } } },
    },
    run: {
      type: 'object',
      additionalProperties: false,
      properties: {
        reportDir: { type: 'string', minLength: 1 },
        rules: { type: 'array', items: { type: 'string' } },
        readOnly: { type: 'boolean' },
        noDrain: { type: 'boolean' },
        longChecks: { type: 'boolean' },
        expectations: { type: 'string', minLength: 1 },
        repeat: { type: 'integer', minimum: 1, maximum: 100 },
        loadFollows: { type: 'boolean' },
        transportRetries: { type: 'integer', minimum: 0, maximum: 10 },
        workers: { type: 'integer', minimum: 1, maximum: 16 },
      },
    },
  },
} as const;
