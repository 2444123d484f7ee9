// The checks on every fuzz answer name the rule they touch, with its level: a 5xx on a valid request is always an
// error; an accepted invalid request is a warning unless a MUST rule says it is rejected.
import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../../harness/http/api-client.ts';
import type { Broken } from '../../fuzz/generate/invalid.ts';
import { judge, type Mode } from '../../fuzz/judge.ts';
import { FUZZ_TARGETS, type FuzzTarget } from '../../fuzz/targets.ts';

const target = (id: string): FuzzTarget => FUZZ_TARGETS.find((t) => t.id === id)!;
const features = { idempotency: true, rateLimiting: false };

function answer(t: FuzzTarget, status: number, body: unknown, path = t.operation.samplePath): ApiResponse {
  const text = JSON.stringify(body);
  return {
    status,
    headers: { 'content-type': 'application/json' },
    text,
    json: body,
    data: body,
    exchange: { method: t.operation.method, url: `http://127.0.0.1:1${path}`, requestHeaders: {}, status, responseHeaders: { 'content-type': 'application/json' }, responseBody: text, durationMs: 1, authenticated: true },
  };
}

const errorBody = (status: number, path: string) => ({ statusCode: status, timestamp: '2026-01-01T00:00:00.000Z', path, message: 'x', ...(status === 500 ? { errorId: 'e1' } : {}) });

function problems(id: string, mode: Mode, status: number, body: unknown, broken?: Broken, sentBody: unknown = {}) {
  const t = target(id);
  const sent = { method: t.operation.method, path: t.operation.samplePath, body: sentBody };
  return judge({ target: t, mode, sent, ...(broken ? { broken } : {}), res: answer(t, status, body), features }).map((p) => `${p.rule} ${p.level}`);
}

describe('judge', () => {
  it('a 500 on a valid request is an error of the rule the valid request keeps, even with an errorId', () => {
    expect(problems('create-workflow', 'valid', 500, errorBody(500, '/v2/workflows'))).toEqual(['WF-01 error']);
  });

  it('a 500 without errorId is also an ERR-08 error', () => {
    const { errorId: _, ...body } = errorBody(500, '/v2/workflows');
    expect(problems('create-workflow', 'valid', 500, body)).toEqual(['WF-01 error', 'ERR-08 error']);
  });

  it('a 5xx on an invalid request is FUZZ-5XX, an error', () => {
    expect(problems('layout-preview', 'invalid', 502, errorBody(502, '/v2/layouts/auth-probe/preview'), { value: {}, pointer: '/controlValues', violation: 'type' })).toEqual([
      'FUZZ-5XX error',
      'FUZZ-STATUS warning',
    ]);
  });

  it('an accepted invalid request is an error where a MUST rule says it is rejected', () => {
    const wf = { _id: 'a', workflowId: 'w', slug: 's', name: 'n', steps: [], origin: 'external', preferences: {}, status: 'ACTIVE', severity: 'none', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
    expect(problems('create-workflow', 'invalid', 201, { data: wf }, { value: {}, pointer: '/workflowId', violation: 'pattern' })).toEqual(['WF-04 error']);
  });

  it('an accepted invalid request is a warning where the rule saying so is SHOULD, or where no rule does', () => {
    const preview = { previewPayloadExample: { subscriber: {} }, result: { type: 'email', preview: { body: '' } }, schema: {} };
    expect(problems('layout-preview', 'invalid', 201, { data: preview }, { value: {}, pointer: '/previewPayload/subscriber/isOnline', violation: 'type' })).toEqual(['LP-05 warning']);
    const prefs = { global: { enabled: true, channels: {} }, workflows: [] };
    expect(problems('update-subscriber-preferences', 'invalid', 200, { data: prefs }, { value: {}, pointer: '/context/k', violation: 'type' })).toEqual(['FUZZ-STATUS warning']);
  });

  it('a valid request refused with a 4xx no rule allows is a finding; one a rule allows is not', () => {
    const path = '/v2/topics/auth-probe/subscriptions';
    expect(problems('delete-topic-subscriptions', 'valid', 422, { ...errorBody(422, path), errors: { subscriptions: { messages: ['no'] } } })).toEqual(['TS-01 error']);
    const allFailed = { data: [], meta: { totalCount: 1, successful: 0, failed: 1 }, errors: [{ subscriberId: 'x', code: 'SUBSCRIBER_NOT_FOUND', message: 'm' }] };
    expect(problems('delete-topic-subscriptions', 'valid', 400, allFailed)).toEqual([]);
    expect(problems('trigger-event', 'valid', 400, errorBody(400, '/v1/events/trigger'), undefined, { bridgeUrl: 'x' })).toEqual([]);
    expect(problems('trigger-event', 'valid', 400, errorBody(400, '/v1/events/trigger'), undefined, {})).toEqual(['TRIG-01 error']);
  });

  it('a status the spec does not list is FUZZ-STATUS; a 2xx other than the success status breaks the operation’s rule', () => {
    expect(problems('list-environments', 'valid', 418, errorBody(418, '/v1/environments'))).toEqual(['FUZZ-STATUS warning', 'ENV-01 error']);
    expect(problems('trigger-event', 'valid', 200, { data: { acknowledged: true, status: 'processed', transactionId: 't' } })).toEqual(['TRIG-01 error']);
  });

  it('error bodies keep the common shape (ERR-01) and success bodies their schema', () => {
    expect(problems('layout-preview', 'invalid', 400, { message: 'bad' }, { value: {}, pointer: '', violation: 'type' })).toEqual(['ERR-01 error']);
    expect(problems('list-environments', 'valid', 200, { data: [{ _id: 'e' }] })).toEqual(['ENV-01 error']);
  });

  it('a 4xx naming a field on a request the official client\'s model allows is a CLIENT-04 warning; one naming none is not', () => {
    const refused = { ...errorBody(422, '/v2/workflows'), errors: { 'preferences.user': { messages: ['user must be an object'], value: null } } };
    expect(problems('create-workflow', 'sdk', 422, refused, undefined, { preferences: { user: null } })).toContain('CLIENT-04 warning');
    expect(problems('delete-topic-subscriptions', 'sdk', 404, errorBody(404, '/v2/topics/t/subscriptions'))).not.toContain('CLIENT-04 warning');
    // a refusal a rule grants is no CLIENT-04 finding (TRIG-05: a bridgeUrl the target will not call)
    expect(problems('trigger-event', 'sdk', 400, { ...errorBody(400, '/v1/events/trigger'), message: 'bridgeUrl is not allowed' }, undefined, { name: 'w', to: 's', bridgeUrl: 'http://10.0.0.1' })).not.toContain('CLIENT-04 warning');
  });

  it('a 500 on a request the official client\'s model allows is an error of the operation\'s rule', () => {
    expect(problems('trigger-event', 'sdk', 500, errorBody(500, '/v1/events/trigger'))).toEqual(['TRIG-01 error']);
  });

  it('a field error that says "must be a string" of a string is a CLIENT-03 warning, in every mode; a true one is not', () => {
    const said = (value: unknown, message: string, field = 'subscriberIds[0]') => ({ ...errorBody(422, '/v2/topics/t/subscriptions'), errors: { [field]: { messages: [message], value } } });
    expect(problems('delete-topic-subscriptions', 'valid', 422, said('', 'each value in subscriberIds must be a string'))).toContain('CLIENT-03 warning');
    expect(problems('delete-topic-subscriptions', 'invalid', 422, said('', 'each value in subscriberIds must be a string'))).toContain('CLIENT-03 warning');
    expect(problems('delete-topic-subscriptions', 'invalid', 422, said(5, 'each value in subscriberIds must be a string'))).not.toContain('CLIENT-03 warning');
    // without an echoed value, the sent one is read at the field's path
    const unechoed = { ...errorBody(422, '/v1/events/trigger'), errors: { 'to[0].topicKey': { messages: ['topicKey must be a string'] } } };
    expect(problems('trigger-event', 'sdk', 422, unechoed, undefined, { name: 'w', to: [{ type: 'Topic', topicKey: '' }] })).toContain('CLIENT-03 warning');
    expect(problems('trigger-event', 'sdk', 422, unechoed, undefined, { name: 'w', to: [{ type: 'Topic', topicKey: 7 }] })).not.toContain('CLIENT-03 warning');
    // said of the list itself, "each value in" speaks of its items; a message that goes on to say more is not judged
    expect(problems('create-workflow', 'invalid', 422, said('x', 'each value in tags must be a string', 'tags'))).not.toContain('CLIENT-03 warning');
    expect(problems('create-workflow', 'invalid', 422, said(['a'], 'each value in tags must be a string', 'tags'))).toContain('CLIENT-03 warning');
    expect(problems('delete-topic-subscriptions', 'invalid', 422, said({ subscriberId: null }, 'each entry must be an object with an optional subscriberId', 'subscriptions[0]'))).not.toContain('CLIENT-03 warning');
  });

  it('a method the path does not define: 405 with Allow, or 404, holds ERR-04; 2xx, 5xx, another 4xx or a 405 without Allow do not', () => {
    const t = target('trigger-event');
    const judged = (status: number, headers: Record<string, string> = {}) => {
      const res = answer(t, status, errorBody(status, '/v1/events/trigger'));
      return judge({ target: t, mode: 'methods', sent: { method: 'PUT' as never, path: '/v1/events/trigger' }, res: { ...res, headers: { ...res.headers, ...headers } }, features }).map((p) => `${p.rule} ${p.level}`);
    };
    expect(judged(405, { allow: 'POST' })).toEqual([]);
    expect(judged(404)).toEqual([]);
    expect(judged(405)).toEqual(['ERR-04 warning']);
    expect(judged(405, { allow: 'POST, PUT' })).toEqual(['ERR-04 warning']);
    expect(judged(405, { allow: 'GET' })).toEqual(['ERR-04 warning']);
    expect(judged(200)).toContain('ERR-04 warning');
    expect(judged(400)).toEqual(['ERR-04 warning']);
    expect(judged(500)).toEqual(['FUZZ-5XX error', 'ERR-04 warning']);
  });
});
