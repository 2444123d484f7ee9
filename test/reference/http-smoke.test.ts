import { describe, expect, it } from 'vitest';
import { withReference } from './helpers.ts';

const commonError = (status: number) => ({ statusCode: status, timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), path: expect.any(String) });

describe('authentication', () => {
  it('401 for missing, unknown, empty, garbage-suffixed, Bearer and bare keys', async () => {
    await withReference({}, async (c) => {
      const k = c.keys.dev;
      for (const authorization of [undefined, 'ApiKey nope', 'ApiKey ', '', `ApiKey ${k}x`, `ApiKey ${k} x`, `Bearer ${k}`, k]) {
        const r = await c.get('/v1/environments', authorization === undefined ? { key: null } : { authorization });
        expect(r.status, String(authorization)).toBe(401);
        expect(r.json).toMatchObject(commonError(401));
        expect(r.json.data).toBeUndefined();
      }
      expect((await c.get('/v1/environments', { authorization: `apikey ${k}` })).status).toBe(200);
    });
  });
  it('restricted key: reads allowed, writes 403 with the common body', async () => {
    await withReference({}, async (c) => {
      const r = await c.post('/v2/workflows', { name: 'x', workflowId: 'x', steps: [] }, { key: c.keys.restricted });
      expect(r.status).toBe(403);
      expect(r.json).toMatchObject(commonError(403));
      expect((await c.get('/v1/environments', { key: c.keys.restricted })).status).toBe(200);
      expect((await c.del('/v2/workflows/x', undefined, { key: c.keys.restricted })).status).toBe(403);
    });
  });
  it('environments are isolated; env vars are organization-wide', async () => {
    await withReference({}, async (c) => {
      await c.workflow('iso');
      expect((await c.get('/v2/workflows/iso', { key: c.keys.prod })).status).toBe(404);
      expect((await c.del('/v2/workflows/iso', undefined, { key: c.keys.prod })).status).toBe(404);
      expect((await c.get('/v2/workflows/iso')).status).toBe(200);
    });
  });
});

describe('wire format', () => {
  it('envelope, content type, 404/405/413/414/415/400', async () => {
    await withReference({}, async (c) => {
      const wf = await c.post('/v2/workflows', { name: 'W', workflowId: 'wire', steps: [] });
      expect(wf.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(wf.json.data.workflowId).toBe('wire');
      expect(wf.json.data.agent).toBeNull();
      expect(wf.json.data.active).toBe(false);
      const del = await c.del('/v2/workflows/wire');
      expect(del.status).toBe(204);
      expect(del.text).toBe('');
      expect((await c.get('/v3/nothing')).json).toMatchObject(commonError(404));
      expect((await c.call('PUT', '/v2/workflows')).json).toMatchObject(commonError(405));
      const big = await c.call('POST', '/v1/events/trigger', { rawBody: JSON.stringify({ name: 'x', to: ['a'], payload: { s: 'x'.repeat(600 * 1024) } }), headers: { 'content-type': 'application/json' } });
      expect(big.status).toBe(413);
      expect(big.json).toMatchObject(commonError(413));
      const long = await c.get('/v1/environment-variables?search=' + 'a'.repeat(5000));
      expect(long.status).toBe(414);
      expect(long.headers['ratelimit-limit']).toBeUndefined();
      const text = await c.call('POST', '/v2/topics', { rawBody: 'key=x', headers: { 'content-type': 'text/plain' } });
      expect(text.status).toBe(415);
      const bad = await c.call('POST', '/v2/topics', { rawBody: '{"key":', headers: { 'content-type': 'application/json' } });
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject(commonError(400));
    });
  });
  it('422 validation body names the fields', async () => {
    await withReference({}, async (c) => {
      const r = await c.post('/v2/workflows', { workflowId: 'bad id!', steps: [{ type: 'nope' }] });
      expect(r.status).toBe(422);
      expect(r.json).toMatchObject({ ...commonError(422), message: 'Validation failed' });
      expect(Object.keys(r.json.errors)).toEqual(expect.arrayContaining(['name', 'workflowId', 'steps[0].name', 'steps[0].type']));
      expect(r.json.errors.workflowId).toEqual({ messages: [expect.any(String)], value: 'bad id!' });
    });
  });
  it('rate limiting: 429 with Retry-After, categories independent; disabled → no headers', async () => {
    await withReference({ rateLimits: { trigger: 1 } }, async (c) => {
      await c.workflow('rl');
      let last;
      for (let i = 0; i < 6; i++) last = await c.post('/v1/events/trigger', { name: 'rl', to: ['a'] });
      expect(last!.status).toBe(429);
      expect(last!.json).toMatchObject({ ...commonError(429), message: 'API rate limit exceeded' });
      expect(last!.headers['retry-after']).toBe('1');
      expect((await c.get('/v1/environments')).status).toBe(200);
      expect((await c.post('/v1/events/trigger', { name: 'rl', to: ['a'] }, { key: c.keys.prod })).status).toBe(404);
    });
    await withReference({ rateLimiting: false }, async (c) => {
      const r = await c.get('/v1/environments');
      expect(r.headers['ratelimit-limit']).toBeUndefined();
    });
  });
});

describe('operations', () => {
  it('trigger: processed, side effects, transactionId dedup, statuses, bridgeUrl, payload validation', async () => {
    await withReference({}, async (c) => {
      await c.workflow('t', { validatePayload: true, payloadSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } });
      const ok = await c.post('/v1/events/trigger', { name: 't', to: ['s1', { subscriberId: 's2', email: 'a@b.co' }], payload: { n: 1 }, transactionId: 'tx-1', actor: { subscriberId: 'act' }, tenant: { identifier: 'ten' }, context: { team: 'a' }, overrides: {}, agentId: null });
      expect(ok.status).toBe(201);
      expect(ok.json.data).toMatchObject({ acknowledged: true, status: 'processed', transactionId: 'tx-1' });
      expect((await c.get('/v2/subscribers/s2')).status).toBe(200);
      expect((await c.get('/v2/subscribers/act')).status).toBe(200);
      const wf1 = (await c.get('/v2/workflows/t')).json.data;
      expect(wf1.lastTriggeredAt).not.toBeNull();
      const again = await c.post('/v1/events/trigger', { name: 't', to: [{ subscriberId: 's3' }], payload: { n: 1 }, transactionId: 'tx-1' });
      expect(again.json.data.transactionId).toBe('tx-1');
      expect((await c.get('/v2/subscribers/s3')).status).toBe(404);
      const bad = await c.post('/v1/events/trigger', { name: 't', to: [{ subscriberId: 's4' }], payload: { n: 'x' } });
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ ...commonError(400), type: 'PAYLOAD_VALIDATION_ERROR', schema: expect.any(Object) });
      expect(bad.json.errors[0]).toEqual({ field: 'n', message: expect.any(String), value: 'x', schemaPath: '#/properties/n/type' });
      const ssrf = await c.post('/v1/events/trigger', { name: 't', to: [{ subscriberId: 's5' }], payload: { n: 1 }, bridgeUrl: 'https://10.1.2.3/' });
      expect(ssrf.status).toBe(400);
      expect(ssrf.text).not.toContain('10.1.2.3');
      expect((await c.get('/v2/subscribers/s5')).status).toBe(404);
      const many = await c.post('/v1/events/trigger', { name: 't', to: Array.from({ length: 101 }, (_, i) => `r${i}`), payload: { n: 1 } });
      expect(many.status).toBe(422);
      expect((await c.post('/v1/events/trigger', { name: 't', to: Array.from({ length: 100 }, (_, i) => `r${i}`), payload: { n: 1 } })).status).toBe(201);
      expect((await c.post('/v1/events/trigger', { name: 't', to: [], payload: { n: 1 } })).json.data.status).toBe('invalid_recipients');
      expect((await c.post('/v1/events/trigger', { name: 'missing', to: ['a'] })).status).toBe(404);
      await c.post('/v2/workflows', { name: 'off', workflowId: 'off', steps: [{ name: 'a', type: 'email' }] });
      expect((await c.post('/v1/events/trigger', { name: 'off', to: ['a'] })).json.data.status).toBe('trigger_not_active');
      await c.post('/v2/workflows', { name: 'empty', workflowId: 'empty', steps: [], active: true });
      expect((await c.post('/v1/events/trigger', { name: 'empty', to: ['a'] })).json.data.status).toBe('no_workflow_steps_defined');
      const bulk = await c.post('/v1/events/trigger/bulk', { events: [{ name: 't', to: ['a'], payload: { n: 1 } }, { name: 'nope', to: ['a'] }] });
      expect(bulk.status).toBe(201);
      expect(bulk.json.data.map((d: any) => d.status)).toEqual(['processed', 'error']);
      expect(bulk.headers['ratelimit-policy']).toContain('cost="bulk"');
    });
  });

  it('delete topic subscriptions: partial success, subscriber-only entries, all failed, unknown topic, cap', async () => {
    await withReference({}, async (c) => {
      await c.topicWith('news', ['a', 'b', 'c']);
      await c.post('/v2/topics/news/subscriptions', { subscriptions: [{ identifier: 'news:a:2', subscriberId: 'a' }] });
      await c.subscriber('lonely');
      const r = await c.del('/v2/topics/news/subscriptions', {
        subscriptions: [{ identifier: 'news:b' }, { subscriberId: 'a' }, { subscriberId: 'ghost' }, { subscriberId: 'lonely' }],
      });
      expect(r.status).toBe(200);
      expect(r.json.meta).toEqual({ totalCount: 4, successful: 2, failed: 2 });
      expect(r.json.data.map((s: any) => s.identifier).sort()).toEqual(['news:a', 'news:a:2', 'news:b']);
      expect(r.json.errors).toEqual([
        { subscriberId: 'ghost', code: 'SUBSCRIBER_NOT_FOUND', message: expect.any(String) },
        { subscriberId: 'lonely', code: 'SUBSCRIPTION_NOT_FOUND', message: expect.any(String) },
      ]);
      const left = await c.get('/v2/topics/news/subscriptions');
      expect(left.json.data.map((s: any) => s.identifier)).toEqual(['news:c']);
      const allFailed = await c.del('/v2/topics/news/subscriptions', { subscriberIds: ['ghost'] });
      expect(allFailed.status).toBe(400);
      expect(allFailed.json.meta).toEqual({ totalCount: 1, successful: 0, failed: 1 });
      expect((await c.del('/v2/topics/nope/subscriptions', { subscriptions: [{ subscriberId: 'c' }] })).status).toBe(404);
      const over = await c.del('/v2/topics/news/subscriptions', { subscriptions: [{ subscriberId: 'c' }, ...Array.from({ length: 100 }, (_, i) => ({ subscriberId: `g${i}` }))] });
      expect(over.status).toBe(422);
      expect((await c.get('/v2/topics/news/subscriptions')).json.data).toHaveLength(1);
      const exactly = await c.del('/v2/topics/news/subscriptions', { subscriptions: [{ subscriberId: 'c' }, ...Array.from({ length: 99 }, (_, i) => ({ subscriberId: `g${i}` }))] });
      expect(exactly.status).toBe(200);
      expect(exactly.json.meta).toEqual({ totalCount: 100, successful: 1, failed: 99 });
    });
  });

  it('preferences: global, per workflow by slug, schedule, invalid hours change nothing', async () => {
    await withReference({}, async (c) => {
      const wf = await c.workflow('p1');
      await c.workflow('p2');
      await c.subscriber('sub');
      const g = await c.patch('/v2/subscribers/sub/preferences', { channels: { email: false } });
      expect(g.json.data.global.channels.email).toBe(false);
      const w = await c.patch('/v2/subscribers/sub/preferences', { channels: { sms: false }, workflowId: wf.slug });
      const entry = (id: string) => w.json.data.workflows.find((x: any) => x.workflow.identifier === id);
      expect(entry('p1').channels.sms).toBe(false);
      expect(entry('p1').overrides).toEqual([{ channel: 'sms', source: 'subscriber' }]);
      expect(entry('p2').channels.sms).toBe(true);
      expect(w.json.data.global.channels.sms).toBe(true);
      const schedule = { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } } };
      expect((await c.patch('/v2/subscribers/sub/preferences', { schedule })).json.data.global.schedule).toEqual(schedule);
      const bad = await c.patch('/v2/subscribers/sub/preferences', { channels: { push: false }, schedule: { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '13:00 PM', end: '25:00' }] } } } });
      expect(bad.status).toBe(422);
      const now = await c.get('/v2/subscribers/sub/preferences');
      expect(now.json.data.global.channels.push).toBe(true);
      expect(now.json.data.global.schedule).toEqual(schedule);
      expect((await c.patch('/v2/subscribers/sub/preferences', { channels: { email: 'no' } })).status).toBe(422);
      expect((await c.patch('/v2/subscribers/ghost/preferences', { channels: { email: true } })).status).toBe(404);
      expect((await c.patch('/v2/subscribers/sub/preferences', { channels: { email: true }, workflowId: 'ghost' })).status).toBe(404);
    });
  });

  it('environments, env vars, layouts, agents', async () => {
    await withReference({}, async (c) => {
      const envs = (await c.get('/v1/environments', { key: c.keys.prod })).json.data;
      expect(envs.map((e: any) => e.type)).toEqual(['dev', 'prod']);
      expect(envs[0].apiKeys).toBeUndefined();
      expect(envs[1].apiKeys[0].key).toBe(c.keys.prod);
      expect(envs[1]._parentId).toBe(envs[0]._id);
      expect((await c.get('/v1/environments', { key: c.keys.restricted })).json.data.every((e: any) => !e.apiKeys)).toBe(true);

      const values = envs.map((e: any) => ({ _environmentId: e._id, value: `v-${e.type}` }));
      expect((await c.post('/v1/environment-variables', { key: 'API_TOKEN', type: 'string', isSecret: true, values })).status).toBe(200);
      await c.post('/v1/environment-variables', { key: 'Plain.Var', type: 'string', isSecret: false, values });
      expect((await c.post('/v1/environment-variables', { key: 'M', isSecret: true, values: [{ _environmentId: envs[0]._id, value: '••••••••' }] })).status).toBe(400);
      const list = (await c.get('/v1/environment-variables?search=token')).json.data;
      expect(list).toHaveLength(1);
      expect(list[0].values.map((v: any) => v.value)).toEqual(['••••••••', '••••••••']);
      expect((await c.get('/v1/environment-variables?search=n.v')).json.data.map((v: any) => v.key)).toEqual(['Plain.Var']);
      expect((await c.get('/v1/environment-variables?search=.*')).json.data).toEqual([]);
      expect((await c.get('/v1/environment-variables?search=' + 'a'.repeat(256))).status).toBe(200);
      expect((await c.get('/v1/environment-variables?search=' + 'a'.repeat(257))).status).toBe(422);
      expect((await c.del('/v1/environment-variables/API_TOKEN')).status).toBe(204);

      expect((await c.post('/v2/layouts', { layoutId: 'base', name: 'Base' })).status).toBe(201);
      const pv = await c.post('/v2/layouts/base/preview', { previewPayload: { subscriber: { firstName: 'Zoe', isOnline: true, channels: [{ providerId: 'slack', credentials: { webhookUrl: 'https://x' } }] } } });
      expect(pv.status).toBe(201);
      expect(pv.json.data.result.type).toBe('email');
      expect(pv.json.data.result.preview.body).toContain('Zoe');
      expect(pv.json.data.previewPayloadExample.subscriber.firstName).toBe('Zoe');
      expect(pv.json.data.schema.type).toBe('object');
      expect((await c.post('/v2/layouts/base/preview', { previewPayload: { subscriber: { isOnline: 'yes' } } })).status).toBe(422);
      expect((await c.post('/v2/layouts/none/preview', {})).status).toBe(404);

      const i1 = (await c.post('/v1/integrations', { providerId: 'novu', channel: 'in_app', name: 'Inbox', identifier: 'inbox-1', active: true })).json.data;
      await c.post('/v1/integrations', { providerId: 'slack', channel: 'chat', name: 'Slack', identifier: 'slack-1', active: true });
      await c.post('/v1/agents', { name: 'Bot', identifier: 'bot' });
      const link = (await c.post('/v1/agents/bot/integrations', { integrationIdentifier: 'inbox-1' })).json.data;
      expect(link.connectedAt).toBeNull();
      const upd = await c.patch(`/v1/agents/bot/integrations/${link._id}`, { integrationIdentifier: 'slack-1' });
      expect(upd.status).toBe(200);
      expect(upd.json.data.integration.identifier).toBe('slack-1');
      expect((await c.patch(`/v1/agents/bot/integrations/${link._id}`, {})).status).toBe(422);
      expect((await c.patch(`/v1/agents/bot/integrations/${link._id}`, { integrationIdentifier: i1._id })).status).toBe(404);
      expect((await c.patch(`/v1/agents/nobody/integrations/${link._id}`, { integrationIdentifier: 'slack-1' })).status).toBe(404);
      expect((await c.del(`/v1/integrations/${i1._id}`)).status).toBe(200);
      expect((await c.del('/v1/agents/bot')).status).toBe(204);
    });
  });

  it('regional listener serves the same API over the same state', async () => {
    await withReference({ regional: true }, async (c) => {
      expect(c.ref.regionalBaseUrl).toBeDefined();
      await c.workflow('reg');
      const r = await c.get('/v2/workflows/reg', { base: c.ref.regionalBaseUrl! });
      expect(r.status).toBe(200);
    });
  });
});
