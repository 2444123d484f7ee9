// The one place that says which schema applies to which response: method + path template + status (+ body shape) → schema.
import type { SchemaName } from './names.ts';

export type { SchemaName };

export interface ResponseSchema {
  schema: SchemaName;
  /** The body is an array of `schema` items. */
  array?: boolean;
  /** A single-key `{data: …}` wrapper is removed before validating (as the official SDK does). */
  unwrap: boolean;
  /** A plain JSON string body is also acceptable (503: "Please wait some time, then try again"). */
  acceptsString?: boolean;
  /** Which entry matched: an operation of the spec, or the generic error mapping. */
  source: string;
}

interface RouteEntry {
  operation: string;
  method: string;
  template: string;
  statuses: readonly number[];
  schema: SchemaName;
  array?: boolean;
  unwrap: boolean;
  /** Extra condition on the (raw) body; entries without one always apply. */
  when?: (body: unknown) => boolean;
}

const isObject = (b: unknown): b is Record<string, unknown> => b !== null && typeof b === 'object' && !Array.isArray(b);

// Order matters only within one route: the first entry whose status and condition match wins.
export const ROUTES: readonly RouteEntry[] = [
  { operation: 'create workflow', method: 'POST', template: '/v2/workflows', statuses: [201], schema: 'WorkflowResponseDto', unwrap: true },
  {
    operation: 'update agent integration', method: 'PATCH', template: '/v1/agents/{identifier}/integrations/{agentIntegrationId}',
    statuses: [200], schema: 'AgentIntegrationResponseDto', unwrap: true,
  },
  // its {data, meta, errors} body is the result itself, never a wrapper; 400 carries it when every entry failed
  { operation: 'delete topic subscriptions', method: 'DELETE', template: '/v2/topics/{topicKey}/subscriptions', statuses: [200, 207], schema: 'DeleteTopicSubscriptionsResponseDto', unwrap: false },
  {
    operation: 'delete topic subscriptions', method: 'DELETE', template: '/v2/topics/{topicKey}/subscriptions', statuses: [400],
    schema: 'DeleteTopicSubscriptionsResponseDto', unwrap: false, when: (b) => isObject(b) && 'meta' in b,
  },
  { operation: 'layout preview', method: 'POST', template: '/v2/layouts/{layoutId}/preview', statuses: [200, 201], schema: 'LayoutPreviewResponseDto', unwrap: true },
  { operation: 'list environment variables', method: 'GET', template: '/v1/environment-variables', statuses: [200], schema: 'EnvironmentVariableDto', array: true, unwrap: true },
  { operation: 'list environments', method: 'GET', template: '/v1/environments', statuses: [200], schema: 'EnvironmentDto', array: true, unwrap: true },
  {
    operation: 'update subscriber preferences', method: 'PATCH', template: '/v2/subscribers/{subscriberId}/preferences',
    statuses: [200], schema: 'SubscriberPreferencesDto', unwrap: true,
  },
  { operation: 'trigger event', method: 'POST', template: '/v1/events/trigger', statuses: [201], schema: 'TriggerEventResponseDto', unwrap: true },
  {
    operation: 'trigger event', method: 'POST', template: '/v1/events/trigger', statuses: [400],
    schema: 'PayloadValidationErrorDto', unwrap: false, when: (b) => isObject(b) && b.type === 'PAYLOAD_VALIDATION_ERROR',
  },
];

/** Schema for a response, or undefined when nothing is specified (e.g. a 2xx of an operation outside the spec). */
export function resolveResponseSchema(method: string, path: string, status: number, body: unknown): ResponseSchema | undefined {
  const m = method.toUpperCase();
  const p = normalizePath(path);
  for (const route of ROUTES) {
    if (route.method !== m || !route.statuses.includes(status) || !templateRegex(route.template).test(p)) continue;
    if (route.when && !route.when(body)) continue;
    const { schema, array, unwrap, operation } = route;
    return { schema, unwrap, source: operation, ...(array ? { array } : {}) };
  }
  return genericError(status);
}

// the Errors part of the spec: the same bodies apply to every operation
function genericError(status: number): ResponseSchema | undefined {
  if (status < 400 || status > 599) return undefined;
  if (status === 422) return { schema: 'ValidationErrorDto', unwrap: false, source: 'generic error' };
  if (status === 429) return { schema: 'RateLimitExceededBody', unwrap: false, source: 'generic error' };
  if (status === 503) return { schema: 'ErrorDto', unwrap: false, acceptsString: true, source: 'generic error' };
  return { schema: 'ErrorDto', unwrap: false, source: 'generic error' };
}

/** Path part only: no origin, query, fragment or trailing slash. */
export function normalizePath(path: string): string {
  let p = /^[a-z][a-z0-9+.-]*:\/\//i.test(path) ? new URL(path).pathname : path;
  p = p.replace(/[?#].*$/, '');
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

const regexCache = new Map<string, RegExp>();
function templateRegex(template: string): RegExp {
  let rx = regexCache.get(template);
  if (!rx) {
    const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
    rx = new RegExp(`^${escaped}$`);
    regexCache.set(template, rx);
  }
  return rx;
}

/** Removes a single-key `{data: …}` wrapper, as the official SDK does; anything else is returned as is. */
export function unwrapData(body: unknown): unknown {
  return isObject(body) && Object.keys(body).length === 1 && 'data' in body ? body.data : body;
}
