// The faithful reference's responses validate against the project's JSON Schemas (through the shared route map).
import { describe, expect, it } from 'vitest';
import { checkResponse } from '../../schemas/response-check.ts';
import { Client, withReference } from './helpers.ts';

class CheckingClient extends Client {
  readonly problems: string[] = [];
  readonly checked: string[] = [];
  override async call(method: string, path: string, o: Parameters<Client['call']>[2] = {}) {
    const r = await super.call(method, path, o);
    const chk = checkResponse({ method, path, status: r.status, body: r.json ?? r.text }, { strict: true });
    if (chk.resolution) this.checked.push(`${method} ${path.split('?')[0]} ${r.status} → ${chk.resolution.schema}`);
    for (const v of chk.violations) this.problems.push(`${method} ${path} ${r.status}: ${v.path} ${v.message}`);
    for (const v of chk.warnings) this.problems.push(`${method} ${path} ${r.status}: unknown property ${v.path}`);
    return r;
  }
}

describe('faithful reference vs project schemas', () => {
  it('every specified response validates (strict: no unknown properties either)', async () => {
    await withReference({ rateLimits: { global: 0.2 }, idempotentProcessingDelayMs: 50 }, async (base) => {
      const c = new CheckingClient(base.ref);
      const wf = await c.workflow('t', {
        description: 'd',
        tags: ['x'],
        validatePayload: true,
        payloadSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
        agent: { identifier: 'bot', providers: { sendgrid: { replyTo: 'a@b.co' } } },
        preferences: { user: { all: { enabled: true, readOnly: false }, channels: { email: { enabled: true } } }, workflow: { channels: { sms: { enabled: false } } } },
        severity: 'high',
        steps: ['in_app', 'email', 'sms', 'push', 'chat', 'delay', 'digest', 'throttle', 'tool', 'custom', 'http_request'].map((type) => ({ name: `s ${type}`, type })),
      });
      await c.post('/v2/workflows', { name: 'minimal', workflowId: 'minimal', steps: [] });
      await c.post('/v2/workflows', {});
      await c.get('/v2/workflows/unknown');
      await c.call('PUT', '/v2/workflows');
      await c.post('/v1/events/trigger', { name: 't', to: ['a', { subscriberId: 'b' }], payload: { n: 1 }, transactionId: 'tx' });
      await c.post('/v1/events/trigger', { name: 't', to: ['a'], payload: { n: 'x' } });
      await c.post('/v1/events/trigger', { name: 't', to: [] , payload: { n: 1 } });
      await c.post('/v1/events/trigger', { name: 't', to: ['a'], bridgeUrl: 'https://127.1/' });
      await c.topicWith('tp', ['a', 'b']);
      await c.del('/v2/topics/tp/subscriptions', { subscriptions: [{ subscriberId: 'a' }, { subscriberId: 'ghost' }] });
      await c.del('/v2/topics/tp/subscriptions', { subscriberIds: ['ghost'] });
      await c.post('/v2/layouts', { layoutId: 'l', name: 'L' });
      await c.post('/v2/layouts/l/preview', { previewPayload: { subscriber: { firstName: 'Z', isOnline: true, __v: 1, topics: ['a'], channels: [{ providerId: 'slack', credentials: { webhookUrl: 'https://x', deviceTokens: ['t'] } }] } } });
      await c.post('/v2/layouts/l/preview', { previewPayload: { subscriber: { isOnline: 'yes' } } });
      const envs = (await c.get('/v1/environments')).json.data as any[];
      await c.get('/v1/environments', { key: c.keys.restricted });
      const values = envs.map((e) => ({ _environmentId: e._id, value: 'v' }));
      await c.post('/v1/environment-variables', { key: 'SECRET', type: 'string', isSecret: true, values });
      await c.post('/v1/environment-variables', { key: 'PLAIN', type: 'string', isSecret: false, values });
      await c.get('/v1/environment-variables?search=e');
      await c.get('/v1/environment-variables?search=' + 'x'.repeat(257));
      await c.subscriber('s');
      await c.patch('/v2/subscribers/s/preferences', { channels: { email: false } });
      await c.patch('/v2/subscribers/s/preferences', {
        channels: { sms: false },
        workflowId: wf.slug,
        schedule: { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } } },
      });
      await c.patch('/v2/subscribers/s/preferences', { channels: { email: 'no' } });
      await c.post('/v1/integrations', { providerId: 'novu', channel: 'in_app', name: 'I', identifier: 'i1', active: true });
      await c.post('/v1/agents', { name: 'B', identifier: 'bot' });
      const link = (await c.post('/v1/agents/bot/integrations', { integrationIdentifier: 'i1' })).json.data;
      await c.patch(`/v1/agents/bot/integrations/${link._id}`, { integrationIdentifier: 'i1' });
      await c.patch(`/v1/agents/bot/integrations/${link._id}`, {});
      await c.get('/v1/environments', { key: null });
      await c.post('/v2/workflows', { name: 'x', workflowId: 'x', steps: [] }, { key: c.keys.restricted });
      for (let i = 0; i < 3; i++) await c.get('/v1/environments');
      const dup = { name: 'T', key: 'idem' };
      await Promise.all([c.post('/v2/topics', dup, { headers: { 'idempotency-key': 'k' } }), c.post('/v2/topics', dup, { headers: { 'idempotency-key': 'k' } })]);
      await c.post('/v2/topics', { key: 'other' }, { headers: { 'idempotency-key': 'k' } });
      await c.get('/v1/environment-variables?search=' + 'a'.repeat(5000));
      await c.call('POST', '/v2/topics', { rawBody: 'k=v', headers: { 'content-type': 'text/plain' } });

      expect(c.problems).toEqual([]);
      const schemas = new Set(c.checked.map((l) => l.split('→ ')[1]));
      for (const s of ['WorkflowResponseDto', 'TriggerEventResponseDto', 'PayloadValidationErrorDto', 'DeleteTopicSubscriptionsResponseDto', 'LayoutPreviewResponseDto', 'EnvironmentDto', 'EnvironmentVariableDto', 'SubscriberPreferencesDto', 'AgentIntegrationResponseDto', 'ErrorDto', 'ValidationErrorDto', 'RateLimitExceededBody']) {
        expect(schemas, s).toContain(s);
      }
    });
  });
});
