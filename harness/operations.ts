// The spec's eight operations (notification-api-spec.md § Endpoints): what suites iterate over.

export interface Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path template exactly as the spec lists it. */
  template: string;
  /** A concrete path with placeholder parameters: enough for checks that never reach the handler (auth). */
  samplePath: string;
  /** A syntactically plausible body for checks that never reach the handler; names carry the run prefix. */
  sampleBody?: (prefix: string) => unknown;
}

export const OPERATIONS: readonly Operation[] = [
  { method: 'POST', template: '/v2/workflows', samplePath: '/v2/workflows', sampleBody: (p) => ({ name: `${p} probe`, workflowId: `${p}-probe`, steps: [] }) },
  {
    method: 'PATCH',
    template: '/v1/agents/{identifier}/integrations/{agentIntegrationId}',
    samplePath: '/v1/agents/auth-probe/integrations/000000000000000000000000',
    sampleBody: (p) => ({ integrationIdentifier: `${p}-probe` }),
  },
  { method: 'DELETE', template: '/v2/topics/{topicKey}/subscriptions', samplePath: '/v2/topics/auth-probe/subscriptions', sampleBody: (p) => ({ subscriptions: [{ subscriberId: `${p}-probe` }] }) },
  { method: 'POST', template: '/v2/layouts/{layoutId}/preview', samplePath: '/v2/layouts/auth-probe/preview', sampleBody: () => ({ controlValues: {}, previewPayload: {} }) },
  { method: 'GET', template: '/v1/environment-variables', samplePath: '/v1/environment-variables' },
  { method: 'GET', template: '/v1/environments', samplePath: '/v1/environments' },
  { method: 'PATCH', template: '/v2/subscribers/{subscriberId}/preferences', samplePath: '/v2/subscribers/auth-probe/preferences', sampleBody: () => ({ channels: { email: true } }) },
  { method: 'POST', template: '/v1/events/trigger', samplePath: '/v1/events/trigger', sampleBody: (p) => ({ name: `${p}-probe`, to: [`${p}-probe`] }) },
];

export const operationLabel = (op: Operation) => `${op.method} ${op.template}`;

const templatePatterns = OPERATIONS.map((op) => ({
  op,
  pattern: new RegExp(`^${op.template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
}));

/** The operation a request is (method and path), wherever the target is mounted. */
export function operationOf(method: string, url: string): Operation | undefined {
  const path = new URL(url).pathname;
  return templatePatterns.find((t) => t.op.method === method.toUpperCase() && (t.pattern.test(path) || t.pattern.test(path.replace(/^.*?(\/v[12]\/)/, '$1'))))?.op;
}

/** Whether a request is one of the eight operations (method and path), wherever the target is mounted. */
export function isOperation(method: string, url: string): boolean {
  return operationOf(method, url) !== undefined;
}
