import { describe, expect, it } from 'vitest';
import { IdempotencyStore } from '../../reference/idempotency.ts';
import { COMPLETED_TTL_MS, IN_PROGRESS_TTL_MS } from '../../reference/idempotency-ttl.ts';
import { withReference } from './helpers.ts';

describe('IdempotencyStore', () => {
  it('locks, replays, detects a different body, and expires lazily', () => {
    const s = new IdempotencyStore();
    expect(s.begin('k', 'fp', 0)).toEqual({ kind: 'new' });
    expect(s.begin('k', 'fp', 1)).toEqual({ kind: 'in-progress' });
    expect(s.begin('k', 'other', 1)).toEqual({ kind: 'in-progress' });
    s.complete('k', 'fp', { status: 201, body: '{"data":1}', headers: {} }, 2);
    expect(s.begin('k', 'fp', 3)).toEqual({ kind: 'replay', response: { status: 201, body: '{"data":1}', headers: {} } });
    expect(s.begin('k', 'other', 3)).toEqual({ kind: 'mismatch' });
    expect(s.begin('k', 'fp', 2 + COMPLETED_TTL_MS)).toEqual({ kind: 'new' });
  });
  it('releases in-flight keys and expires them after 5 minutes', () => {
    const s = new IdempotencyStore();
    s.begin('a', 'fp', 0);
    s.release('a');
    expect(s.begin('a', 'fp', 1).kind).toBe('new');
    expect(s.begin('a', 'fp', 1 + IN_PROGRESS_TTL_MS).kind).toBe('new');
  });
});

describe('idempotency over HTTP', () => {
  it('replays a completed POST with the same status, identical body and Idempotency-Replay', async () => {
    await withReference({ rateLimits: { configuration: 0.5 } }, async (c) => {
      const body = { name: 'W', workflowId: 'idem-wf', steps: [] };
      const h = { 'idempotency-key': 'key-1' };
      const first = await c.post('/v2/workflows', body, { headers: h });
      const second = await c.post('/v2/workflows', body, { headers: h });
      expect(first.status).toBe(201);
      expect(first.headers['idempotency-key']).toBe('key-1');
      expect(first.headers['idempotency-replay']).toBeUndefined();
      expect(second.status).toBe(201);
      expect(second.text).toBe(first.text);
      expect(second.headers['idempotency-replay']).toBe('true');
      expect(second.headers['idempotency-key']).toBe('key-1');
      // replay took no token
      expect(second.headers['ratelimit-remaining']).toBe(first.headers['ratelimit-remaining']);
      // and had no second effect: a fresh create would be a 409
      expect((await c.post('/v2/workflows', body)).status).toBe(409);
    });
  });

  it('a key is per environment: the prod key sending the same key and body makes its own request (AUTH-05)', async () => {
    await withReference({}, async (c) => {
      const body = { name: 'W', workflowId: 'org-wf', steps: [] };
      const h = { 'idempotency-key': 'shared' };
      const first = await c.post('/v2/workflows', body, { headers: h });
      const second = await c.post('/v2/workflows', body, { headers: h, key: c.keys.prod });
      expect(second.status).toBe(201);
      expect(second.headers['idempotency-replay']).toBeUndefined();
      expect(second.json.data._id).not.toBe(first.json.data._id);
      const again = await c.post('/v2/workflows', body, { headers: h, key: c.keys.prod });
      expect(again.text).toBe(second.text);
      expect(again.headers['idempotency-replay']).toBe('true');
    });
  });

  it('20 concurrent duplicates: exactly one processed, others 409 (Retry-After: 1, Link) or replay', async () => {
    await withReference({ idempotentProcessingDelayMs: 150 }, async (c) => {
      await c.workflow('conc');
      const body = { name: 'conc', to: [{ subscriberId: 'x1' }] };
      const replies = await Promise.all(Array.from({ length: 20 }, () => c.post('/v1/events/trigger', body, { headers: { 'idempotency-key': 'race' } })));
      const fresh = replies.filter((r) => r.status === 201 && r.headers['idempotency-replay'] === undefined);
      const conflicts = replies.filter((r) => r.status === 409);
      expect(fresh).toHaveLength(1);
      expect(conflicts.length + fresh.length + replies.filter((r) => r.headers['idempotency-replay'] === 'true').length).toBe(20);
      for (const r of conflicts) {
        expect(r.headers['retry-after']).toBe('1');
        expect(r.headers.link).toMatch(/rel="help"/);
        expect(r.json).toMatchObject({ statusCode: 409, path: '/v1/events/trigger', message: 'Request with key "race" is currently being processed. Please retry after 1 second' });
      }
      const after = await c.post('/v1/events/trigger', body, { headers: { 'idempotency-key': 'race' } });
      expect(after.headers['idempotency-replay']).toBe('true');
      expect(after.json.data.transactionId).toBe(fresh[0]!.json.data.transactionId);
    });
  });

  it('same key with a different body gets 422 with the validation shape and a Link header', async () => {
    await withReference({}, async (c) => {
      await c.post('/v2/topics', { key: 'a' }, { headers: { 'idempotency-key': 'k2' } });
      const r = await c.post('/v2/topics', { key: 'b' }, { headers: { 'idempotency-key': 'k2' } });
      expect(r.status).toBe(422);
      expect(r.headers.link).toBeDefined();
      expect(r.json.message).toBe('Request with key "k2" is being reused for a different body');
      expect(r.json.errors['idempotency-key'].messages).toEqual([r.json.message]);
      expect((await c.get('/v2/topics/b')).status).toBe(404);
    });
  });

  it('keys over 255 characters get 400; exactly 255 is fine; GET is never replayed', async () => {
    await withReference({}, async (c) => {
      expect((await c.post('/v2/topics', { key: 'x' }, { headers: { 'idempotency-key': 'k'.repeat(256) } })).status).toBe(400);
      expect((await c.post('/v2/topics', { key: 'x' }, { headers: { 'idempotency-key': 'k'.repeat(255) } })).status).toBe(201);
      const g1 = await c.get('/v1/environments', { headers: { 'idempotency-key': 'g' } });
      const g2 = await c.get('/v1/environments', { headers: { 'idempotency-key': 'g' } });
      expect(g2.headers['idempotency-replay']).toBeUndefined();
      expect(g1.headers['idempotency-key'], 'the deployed service echoes the key on POST and PATCH only (IDEM-04)').toBeUndefined();
    });
  });

  it('5xx results are not cached', async () => {
    await withReference({ faults: ['500-without-errorId'] }, async (c) => {
      await c.workflow('crash');
      const h = { 'idempotency-key': 'c5' };
      const body = { name: 'crash', to: ['s'], payload: { __crash: true } };
      expect((await c.post('/v1/events/trigger', body, { headers: h })).status).toBe(500);
      const again = await c.post('/v1/events/trigger', body, { headers: h });
      expect(again.status).toBe(500);
      expect(again.headers['idempotency-replay']).toBeUndefined();
    });
  });

  it('idempotency: false ignores the header entirely', async () => {
    await withReference({ idempotency: false }, async (c) => {
      const r = await c.post('/v2/topics', { key: 'x' }, { headers: { 'idempotency-key': 'k'.repeat(300) } });
      expect(r.status).toBe(201);
      expect(r.headers['idempotency-key']).toBeUndefined();
    });
  });
});
