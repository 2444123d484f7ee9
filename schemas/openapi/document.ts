// `conformance openapi`: an OpenAPI 3.1 document of the spec's eight operations, built from the schemas the suite checks
// with (their constraints, the route map's statuses) so a tool that reads OpenAPI sees what the suite judges by.
import { ROUTES } from '../route-map.ts';
import type { SchemaName } from '../names.ts';
import type { JsonSchema } from '../schema-files.ts';
import { componentSchemas } from './components.ts';

export const INTERFACE_VERSION = '3.19.2';

interface RequestSide {
  operationId: string;
  tag: string;
  summary: string;
  /** Path parameters, in template order, with what the spec says they name. */
  params?: Record<string, string>;
  body?: SchemaName;
  query?: { name: string; description: string; schema: JsonSchema };
}

// What the route map does not hold: the request side of each operation (notification-api-spec.md § Endpoints).
const REQUESTS: Record<string, RequestSide> = {
  'create workflow': { operationId: 'createWorkflow', tag: 'Workflows', summary: 'Create a workflow', body: 'CreateWorkflowDto' },
  'update agent integration': {
    operationId: 'updateAgentIntegration', tag: 'Agents', summary: 'Update an agent integration', body: 'UpdateAgentIntegrationRequestDto',
    params: { identifier: 'agent identifier', agentIntegrationId: 'link document id' },
  },
  'delete topic subscriptions': {
    operationId: 'deleteTopicSubscriptions', tag: 'Topics', summary: 'Delete topic subscriptions', body: 'DeleteTopicSubscriptionsRequestDto',
    params: { topicKey: 'topic key' },
  },
  'layout preview': { operationId: 'generateLayoutPreview', tag: 'Layouts', summary: 'Generate a layout preview', body: 'LayoutPreviewRequestDto', params: { layoutId: 'layout id' } },
  'list environment variables': {
    operationId: 'listEnvironmentVariables', tag: 'Environment variables', summary: 'List all environment variables',
    // the spec leaves the parameter's name open; `search` is the deployed service's, the one the suite sends
    query: { name: 'search', description: 'filter on the variable key: case-insensitive partial match', schema: { type: 'string', maxLength: 256 } },
  },
  'list environments': { operationId: 'listEnvironments', tag: 'Environments', summary: 'List all environments' },
  'update subscriber preferences': {
    operationId: 'updateSubscriberPreferences', tag: 'Subscribers', summary: 'Update subscriber preferences', body: 'PatchSubscriberPreferencesDto',
    params: { subscriberId: 'subscriber id' },
  },
  'trigger event': { operationId: 'triggerEvent', tag: 'Events', summary: 'Trigger event', body: 'TriggerEventRequestDto' },
};

// Errors § Status codes listed for workflow creation: the same bodies apply to every operation.
const ERROR_STATUSES = [400, 401, 403, 404, 405, 409, 413, 414, 415, 422, 429, 500, 503] as const;
const ERROR_MEANING: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict',
  413: 'Payload Too Large', 414: 'URI Too Long', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity',
  429: 'Too many requests in a time window', 500: 'Internal Server Error', 503: 'Temporary overload or maintenance',
};

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The deployed service wraps a success body in `{data: …}`; the suite (and the official client) accept it either way. */
function successSchema(schema: SchemaName, array: boolean): JsonSchema {
  const body = array ? { type: 'array', items: ref(schema) } : ref(schema);
  return { anyOf: [{ type: 'object', required: ['data'], properties: { data: body } }, body] };
}

function errorSchema(status: number): JsonSchema {
  if (status === 422) return ref('ValidationErrorDto');
  if (status === 429) return ref('RateLimitExceededBody');
  // 503: "Please wait some time, then try again" may come as a plain JSON string
  if (status === 503) return { anyOf: [ref('ErrorDto'), { type: 'string' }] };
  return ref('ErrorDto');
}

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy', 'Idempotency-Key', 'Idempotency-Replay'];

function headersFor(status: number): Record<string, unknown> | undefined {
  if (status === 414) return undefined; // no rate-limit or idempotency headers listed for it
  const names = status === 429 || status === 503 ? [...RATE_LIMIT_HEADERS, 'Retry-After'] : RATE_LIMIT_HEADERS;
  return Object.fromEntries(names.map((n) => [n, headerRef(n)]));
}

function response(description: string, schema: JsonSchema, status: number): Record<string, unknown> {
  const headers = headersFor(status);
  return { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } };
}

function operationObject(name: string): Record<string, unknown> {
  const side = REQUESTS[name];
  const routes = ROUTES.filter((r) => r.operation === name);
  if (!side || routes.length === 0) throw new Error(`operation ${JSON.stringify(name)} has no route or no request side`);
  const responses: Record<string, unknown> = {};
  for (const route of routes) {
    for (const status of route.statuses) {
      const schema = status < 300 ? successSchema(route.schema, route.array ?? false) : { anyOf: [ref(route.schema), ref('ErrorDto')] };
      responses[String(status)] = response(status < 300 ? 'Success' : `${ERROR_MEANING[status]} (also ${route.schema})`, schema, status);
    }
  }
  for (const status of ERROR_STATUSES) responses[String(status)] ??= { $ref: `#/components/responses/Error${status}` };
  const parameters = [
    ...Object.entries(side.params ?? {}).map(([p, description]) => ({ name: p, in: 'path', required: true, description, schema: { type: 'string' } })),
    ...(side.query ? [{ name: side.query.name, in: 'query', required: false, description: side.query.description, schema: side.query.schema }] : []),
    { $ref: '#/components/parameters/IdempotencyKey' },
  ];
  return {
    operationId: side.operationId,
    summary: side.summary,
    tags: [side.tag],
    parameters,
    ...(side.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(side.body) } } } } : {}),
    responses,
  };
}

const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/** The document, deterministic: the same schema files always give the same bytes. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const name of Object.keys(REQUESTS)) {
    const { method, template } = ROUTES.find((r) => r.operation === name)!;
    (paths[template] ??= {})[method.toLowerCase()] = operationObject(name);
  }
  const tags = [...new Set(Object.values(REQUESTS).map((r) => r.tag))].sort().map((name) => ({ name, description: `${name} operations of the interface` }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Notification Service HTTP API (the part the conformance suite checks)',
      version: INTERFACE_VERSION,
      description:
        'The eight operations of interface 3.19.2, generated by `conformance openapi` from the JSON Schemas the conformance suite validates with. ' +
        'Response schemas are open (a target may add fields); rules beyond the shapes (limits, idempotency, rate limiting) are in docs/RULES.md.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [
      { url: '{base_url}', description: 'the service (or the regional address, base_url_eu)', variables: { base_url: { default: 'http://127.0.0.1:3000', description: 'base address of the target' } } },
    ],
    security: [{ secretKey: [] }],
    tags,
    paths,
    components: {
      securitySchemes: {
        secretKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The header value is `ApiKey <SECRET_KEY>`; each environment has its own keys.' },
      },
      parameters: {
        IdempotencyKey: { name: 'idempotency-key', in: 'header', required: false, description: 'A retried request with the same key returns the first answer (409 while the first is processing)', schema: { type: 'string' } },
      },
      headers: {
        'RateLimit-Limit': integerHeader('total request tokens in the current window'),
        'RateLimit-Remaining': integerHeader('tokens left in the current window'),
        'RateLimit-Reset': integerHeader('seconds until the window resets'),
        'RateLimit-Policy': { description: 'the applied policy, e.g. `600;w=1;burst=…;comment="…";category="…";cost="…"`', schema: { type: 'string' } },
        'Idempotency-Key': { description: 'the idempotency key of the request, echoed', schema: { type: 'string' } },
        'Idempotency-Replay': { description: '`true` on an answer replayed for a repeated idempotency key', schema: { type: 'string' } },
        'Retry-After': integerHeader('seconds to wait before retrying'),
      },
      responses: Object.fromEntries(ERROR_STATUSES.map((s) => [`Error${s}`, response(ERROR_MEANING[s]!, errorSchema(s), s)])),
      schemas: componentSchemas(),
    },
  };
}

/** The text `conformance openapi` prints and the package ships (`schemas/openapi/openapi.json`). */
export const openApiText = (): string => `${JSON.stringify(openApiDocument(), null, 2)}\n`;
