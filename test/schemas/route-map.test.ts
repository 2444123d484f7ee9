import { describe, expect, it } from 'vitest';
import { normalizePath, resolveResponseSchema, unwrapData } from '../../schemas/route-map.ts';

describe('route map: the spec operations', () => {
  it.each([
    ['POST', '/v2/workflows', 201, 'WorkflowResponseDto', undefined, true],
    ['PATCH', '/v1/agents/bot-1/integrations/64f0c0ffee', 200, 'AgentIntegrationResponseDto', undefined, true],
    ['DELETE', '/v2/topics/news/subscriptions', 200, 'DeleteTopicSubscriptionsResponseDto', undefined, false],
    ['POST', '/v2/layouts/default-layout/preview', 201, 'LayoutPreviewResponseDto', undefined, true],
    ['POST', '/v2/layouts/default-layout/preview', 200, 'LayoutPreviewResponseDto', undefined, true],
    ['GET', '/v1/environment-variables?search=API', 200, 'EnvironmentVariableDto', true, true],
    ['GET', '/v1/environments', 200, 'EnvironmentDto', true, true],
    ['PATCH', '/v2/subscribers/sub-1/preferences', 200, 'SubscriberPreferencesDto', undefined, true],
    ['post', 'https://api.example.test/v1/events/trigger/', 201, 'TriggerEventResponseDto', undefined, true],
  ])('%s %s %i → %s', (method, path, status, schema, array, unwrap) => {
    const r = resolveResponseSchema(method, path, status, {});
    expect(r?.schema).toBe(schema);
    expect(r?.array).toBe(array);
    expect(r?.unwrap).toBe(unwrap);
  });

  it('delete topic subscriptions 400 carrying the result → its response schema, otherwise the common error body', () => {
    const path = '/v2/topics/news/subscriptions';
    expect(resolveResponseSchema('DELETE', path, 400, { data: [], meta: {}, errors: [] })?.schema).toBe('DeleteTopicSubscriptionsResponseDto');
    expect(resolveResponseSchema('DELETE', path, 400, { statusCode: 400 })?.schema).toBe('ErrorDto');
  });

  it('trigger 400 with type PAYLOAD_VALIDATION_ERROR → PayloadValidationErrorDto, other 400 → ErrorDto', () => {
    expect(resolveResponseSchema('POST', '/v1/events/trigger', 400, { type: 'PAYLOAD_VALIDATION_ERROR' })?.schema).toBe('PayloadValidationErrorDto');
    expect(resolveResponseSchema('POST', '/v1/events/trigger', 400, { statusCode: 400 })?.schema).toBe('ErrorDto');
  });
});

describe('route map: generic errors', () => {
  it.each([
    [400, 'ErrorDto'], [401, 'ErrorDto'], [404, 'ErrorDto'], [409, 'ErrorDto'], [500, 'ErrorDto'],
    [422, 'ValidationErrorDto'], [429, 'RateLimitExceededBody'], [503, 'ErrorDto'],
  ])('status %i on any path → %s, never unwrapped', (status, schema) => {
    const r = resolveResponseSchema('GET', '/v9/anything', status, {});
    expect(r?.schema).toBe(schema);
    expect(r?.unwrap).toBe(false);
  });

  it('503 also accepts a plain string', () => {
    expect(resolveResponseSchema('POST', '/v2/workflows', 503, 'Please wait')?.acceptsString).toBe(true);
  });

  it('no schema for a success outside the spec, or a wrong method/status', () => {
    expect(resolveResponseSchema('GET', '/v2/workflows/x', 200, {})).toBeUndefined();
    expect(resolveResponseSchema('GET', '/v2/workflows', 201, {})).toBeUndefined();
    expect(resolveResponseSchema('POST', '/v2/workflows', 200, {})).toBeUndefined();
    expect(resolveResponseSchema('POST', '/v2/workflows/extra', 201, {})).toBeUndefined();
  });
});

describe('helpers', () => {
  it('normalizePath strips origin, query, fragment and trailing slash', () => {
    expect(normalizePath('https://h.test:8080/v1/environments/?a=1#x')).toBe('/v1/environments');
    expect(normalizePath('/')).toBe('/');
  });

  it('unwrapData removes only a single-key data wrapper', () => {
    expect(unwrapData({ data: [1] })).toEqual([1]);
    expect(unwrapData({ data: [], meta: {} })).toEqual({ data: [], meta: {} });
    expect(unwrapData([{ data: 1 }])).toEqual([{ data: 1 }]);
    expect(unwrapData(null)).toBeNull();
  });
});
