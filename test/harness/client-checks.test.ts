// CLIENT-02/03: the official SDK's models read answers of the eight operations; each problem names its model path.
import { describe, expect, it } from 'vitest';
import { CLIENT_CHECKS } from '../../harness/checks/client-checks.ts';
import type { Exchange } from '../../harness/http/exchange.ts';
import { jsonExchange } from './json-exchange.ts';

const on = { idempotency: true, rateLimiting: true };
const verdict = (rule: 'CLIENT-02' | 'CLIENT-03', e: Exchange) => {
  const check = CLIENT_CHECKS.find((c) => c.rule === rule)!;
  return check.applies(e, on) ? (check.check(e) ?? 'ok') : 'n/a';
};

const step = { _id: 's1', stepId: 'inbox', name: 'Inbox', slug: 'inbox_st_1', type: 'in_app', controls: { values: {} }, variables: {}, origin: 'novu-cloud', workflowId: 'welcome', workflowDatabaseId: 'w1' };
const workflow = {
  _id: 'w1', name: 'Welcome', workflowId: 'welcome', slug: 'welcome_wf_1', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
  steps: [step], origin: 'novu-cloud', status: 'ACTIVE', severity: 'none',
  preferences: { user: null, default: { all: { enabled: true, readOnly: false }, channels: { in_app: { enabled: true } } } },
};
const errorBody = { statusCode: 404, timestamp: '2026-01-01T00:00:00.000Z', path: '/v2/layouts/x/preview', message: 'Layout not found' };

describe('CLIENT-02: success answers read by the official client', () => {
  it('accepts a workflow answer the SDK can read, wrapped in {data} or bare', () => {
    expect(verdict('CLIENT-02', jsonExchange('POST', '/v2/workflows', 201, { data: workflow }))).toBe('ok');
    expect(verdict('CLIENT-02', jsonExchange('POST', '/v2/workflows', 201, workflow))).toBe('ok');
  });

  it('names each missing or mistyped deployed-only field by its model path', () => {
    const { origin: _origin, workflowDatabaseId: _id, ...bare } = step;
    const message = verdict('CLIENT-02', jsonExchange('POST', '/v2/workflows', 201, { data: { ...workflow, steps: [bare, { ...step, workflowId: 7 }] } }));
    expect(message).toContain('WorkflowResponseDto');
    expect(message).toContain('steps.0.origin: Required');
    expect(message).toContain('steps.0.workflowDatabaseId: Required');
    expect(message).toContain('steps.1.workflowId: Expected string, received number');
  });

  it('reads list answers item by item', () => {
    const env = { _id: 'e1', name: 'Development', _organizationId: 'o1', identifier: 'dev' };
    expect(verdict('CLIENT-02', jsonExchange('GET', '/v1/environments', 200, { data: [env] }))).toBe('ok');
    expect(verdict('CLIENT-02', jsonExchange('GET', '/v1/environments', 200, { data: [env, { ...env, name: undefined }] }))).toContain('1.name: Required');
    expect(verdict('CLIENT-02', jsonExchange('GET', '/v1/environments', 200, { data: env }))).toContain('Expected array');
  });

  it('says nothing about errors, other operations or unreadable bodies of other rules', () => {
    expect(verdict('CLIENT-02', jsonExchange('POST', '/v2/workflows', 422, { ...errorBody, statusCode: 422, errors: {} }))).toBe('n/a');
    expect(verdict('CLIENT-02', jsonExchange('POST', '/v2/subscribers', 201, { data: {} }))).toBe('n/a');
    expect(verdict('CLIENT-02', jsonExchange('POST', '/v2/workflows', 201, 'not json'))).toContain('not JSON');
  });
});

describe('CLIENT-03: error answers read as the SDK error types', () => {
  it('accepts the common error body and the validation error body', () => {
    expect(verdict('CLIENT-03', jsonExchange('POST', '/v2/layouts/x/preview', 404, errorBody))).toBe('ok');
    expect(verdict('CLIENT-03', jsonExchange('POST', '/v2/workflows', 422, { ...errorBody, statusCode: 422, errors: { name: { messages: ['required'] } } }))).toBe('ok');
    expect(verdict('CLIENT-03', jsonExchange('POST', '/v2/workflows', 400, { ...errorBody, statusCode: 400, message: null }))).toBe('ok');
  });

  it('names what the SDK cannot read', () => {
    expect(verdict('CLIENT-03', jsonExchange('POST', '/v2/workflows', 422, { ...errorBody, statusCode: 422 }))).toContain('ValidationErrorDto: errors: Required');
    expect(verdict('CLIENT-03', jsonExchange('POST', '/v2/layouts/x/preview', 404, { ...errorBody, statusCode: '404' }))).toContain('ErrorDto: statusCode: Expected number, received string');
    const bareResult = { data: [], meta: { totalCount: 1, successful: 0, failed: 1 }, errors: [] };
    expect(verdict('CLIENT-03', jsonExchange('DELETE', '/v2/topics/t/subscriptions', 400, bareResult))).toContain('ErrorDto');
  });

  it('reads a trigger payload validation 400 as PayloadValidationExceptionDto, and leaves 429/503 alone', () => {
    const payloadError = { ...errorBody, statusCode: 400, path: '/v1/events/trigger', type: 'PAYLOAD_VALIDATION_ERROR', errors: [{ field: 'n', message: 'must be number', value: 'x', schemaPath: '#/properties/n/type' }], schema: {} };
    expect(verdict('CLIENT-03', jsonExchange('POST', '/v1/events/trigger', 400, payloadError))).toBe('ok');
    expect(verdict('CLIENT-03', jsonExchange('POST', '/v1/events/trigger', 400, { ...payloadError, errors: 'x' }))).toContain('PayloadValidationExceptionDto');
    expect(verdict('CLIENT-03', jsonExchange('POST', '/v1/events/trigger', 429, 'API rate limit exceeded'))).toBe('n/a');
    expect(verdict('CLIENT-03', jsonExchange('POST', '/v1/events/trigger', 503, 'Please wait'))).toBe('n/a');
  });
});
