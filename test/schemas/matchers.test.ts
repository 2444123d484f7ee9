import { describe, expect, it } from 'vitest';
import '../../schemas/matchers.ts';

const TS = '2026-01-01T00:00:00.000Z';
const workflow = {
  _id: '1', name: 'n', workflowId: 'w', slug: 's', createdAt: TS, updatedAt: TS, origin: 'external', preferences: {},
  status: 'ACTIVE', severity: 'none', steps: [{ name: 'x', type: 'banana' }],
};

describe('toMatchSchema', () => {
  it('passes a valid body, and .not fails it', () => {
    expect({ acknowledged: true, status: 'processed', transactionId: 't' }).toMatchSchema('TriggerEventResponseDto');
    expect({ acknowledged: true }).not.toMatchSchema('TriggerEventResponseDto');
  });

  it('failure message names the schema, the JSON pointer and the value', () => {
    expect(() => expect(workflow).toMatchSchema('WorkflowResponseDto')).toThrow(
      'WorkflowResponseDto: /steps/0/type must be equal to one of the allowed values (got "banana")',
    );
  });
});

describe('toMatchResponseSchema', () => {
  it('looks the schema up in the route map, unwrapping {data}', () => {
    expect({ method: 'POST', path: '/v1/events/trigger', status: 201, body: { data: { acknowledged: true, status: 'processed' } } }).toMatchResponseSchema();
    expect({ method: 'GET', path: '/v1/environments', status: 200, body: { data: [{ _id: 'e', name: 'Dev', _organizationId: 'o', identifier: 'i', type: 'dev' }] } })
      .toMatchResponseSchema();
  });

  it('never unwraps the delete-topic-subscriptions body', () => {
    expect({ method: 'DELETE', path: '/v2/topics/t/subscriptions', status: 200, body: { data: [], meta: { totalCount: 0, successful: 0, failed: 0 }, errors: [] } })
      .toMatchResponseSchema();
  });

  it('array items are reported with their index', () => {
    const res = { method: 'GET', path: '/v1/environments', status: 200, body: [{ _id: 'e', name: 'Dev', _organizationId: 'o', identifier: 'i', type: 'staging' }] };
    expect(() => expect(res).toMatchResponseSchema()).toThrow('EnvironmentDto[]: /0/type must be equal to one of the allowed values (got "staging")');
  });

  it('error statuses use the generic error bodies; 429 and 503 accept their strings', () => {
    expect({ method: 'POST', path: '/v2/workflows', status: 404, body: { statusCode: 404, timestamp: TS, path: '/v2/workflows' } }).toMatchResponseSchema();
    expect({ method: 'POST', path: '/v1/events/trigger', status: 429, body: 'API rate limit exceeded' }).toMatchResponseSchema();
    expect({ method: 'POST', path: '/v1/events/trigger', status: 503, body: 'Please wait some time, then try again' }).toMatchResponseSchema();
    expect(() => expect({ method: 'POST', path: '/v2/workflows', status: 422, body: { statusCode: 422, timestamp: TS, path: '/p' } }).toMatchResponseSchema())
      .toThrow('ValidationErrorDto: /errors is required (missing)');
  });

  it('fails when the route map names no schema', () => {
    expect(() => expect({ method: 'GET', path: '/v2/workflows/x', status: 200, body: {} }).toMatchResponseSchema()).toThrow(/names no schema for GET \/v2\/workflows\/x 200/);
  });
});
