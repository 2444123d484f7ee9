// Every fault of the catalog is exercised: a probe observes a behaviour that differs with the fault on.
import { describe, expect, it, vi } from 'vitest';
import { CATALOG, type RuleId } from '../../requirements/index.ts';
import { FAULTS, type FaultName, type ReferenceOptions } from '../../reference/index.ts';
import { type CallOptions, type Client, withReference } from './helpers.ts';

interface Probe {
  options?: ReferenceOptions;
  run(c: Client): Promise<unknown>;
}
const p = (run: Probe['run'], options?: ReferenceOptions): Probe => ({ run, ...(options ? { options } : {}) });

const envs = async (c: Client, key?: string) => (await c.get('/v1/environments', key ? { key } : {})).json.data as any[];
const wfBody = (extra: Record<string, unknown> = {}) => ({ name: 'W', workflowId: 'wf', steps: [{ name: 'Inbox', type: 'in_app' }], ...extra });
const createWf = async (c: Client, extra: Record<string, unknown> = {}) => c.post('/v2/workflows', wfBody(extra));
const trig = (c: Client, body: Record<string, unknown>, o?: CallOptions) => c.post('/v1/events/trigger', { name: 't', to: ['s1'], ...body }, o);
const withT = (fn: (c: Client) => Promise<unknown>, extra: Record<string, unknown> = {}) =>
  p(async (c) => {
    await c.workflow('t', extra);
    return fn(c);
  });
const schemaWf = { validatePayload: true, payloadSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } };
const richSchemaWf = {
  validatePayload: true,
  payloadSchema: { type: 'object', properties: { n: { type: 'number' }, list: { type: 'array', items: { type: 'number' } }, inner: { type: 'object', properties: { e: { type: 'string' } } } } },
};
const bridge = (url: string) => withT(async (c) => (await trig(c, { bridgeUrl: url })).status);
/** A trigger of `t` to `s1` whose JSON body is exactly `bytes` long (its payload pads it). */
function triggerOfBytes(bytes: number): string {
  const skeleton = JSON.stringify({ name: 't', to: ['s1'], payload: { blob: '' } });
  return JSON.stringify({ name: 't', to: ['s1'], payload: { blob: 'x'.repeat(bytes - Buffer.byteLength(skeleton)) } });
}

async function agentSetup(c: Client) {
  const inbox = (await c.post('/v1/integrations', { providerId: 'novu', channel: 'in_app', name: 'Inbox', identifier: 'inbox-1', active: true })).json.data;
  const slack = (await c.post('/v1/integrations', { providerId: 'slack', channel: 'chat', name: 'Slack', identifier: 'slack-1', active: true })).json.data;
  await c.post('/v1/agents', { name: 'Bot', identifier: 'bot' });
  const link = (await c.post('/v1/agents/bot/integrations', { integrationIdentifier: 'inbox-1' })).json.data;
  return { inbox, slack, link };
}
const topicSetup = async (c: Client) => c.topicWith('t', ['a', 'b']);
const tsProbe = (fn: (c: Client) => Promise<unknown>) =>
  p(async (c) => {
    await topicSetup(c);
    return fn(c);
  });
const delSubs = (c: Client, body: unknown) => c.del('/v2/topics/t/subscriptions', body);
const listSubs = async (c: Client) => (await c.get('/v2/topics/t/subscriptions')).json.data as any[];
const ghosts = (n: number) => Array.from({ length: n }, (_, i) => ({ subscriberId: `ghost-${i}` }));

async function layoutPreview(c: Client) {
  await c.post('/v2/layouts', { layoutId: 'l', name: 'L' });
  return (await c.post('/v2/layouts/l/preview', { previewPayload: { subscriber: { firstName: 'Zoe' } } })).json.data;
}
async function previewStatus(c: Client, body: unknown) {
  await c.post('/v2/layouts', { layoutId: 'l', name: 'L' });
  return (await c.post('/v2/layouts/l/preview', body)).status;
}
const previewOf = (subscriber: Record<string, unknown>) => ({ previewPayload: { subscriber } });
async function envVarSetup(c: Client) {
  const e = await envs(c);
  const values = e.map((x) => ({ _environmentId: x._id, value: `plain-${x.type}` }));
  await c.post('/v1/environment-variables', { key: 'API_TOKEN', type: 'string', isSecret: true, values });
  await c.post('/v1/environment-variables', { key: 'PLAIN', type: 'string', isSecret: false, values });
}
const evProbe = (fn: (c: Client) => Promise<unknown>) =>
  p(async (c) => {
    await envVarSetup(c);
    return fn(c);
  });
const varList = async (c: Client, q = '') => (await c.get('/v1/environment-variables' + q)).json.data;

const prefProbe = (fn: (c: Client, wf: any) => Promise<unknown>) =>
  p(async (c) => {
    const wf = await c.workflow('p1');
    await c.workflow('p2');
    await c.subscriber('sub');
    return fn(c, wf);
  });
const prefs = (c: Client, body: unknown) => c.patch('/v2/subscribers/sub/preferences', body);
const schedule = (start: string) => ({ isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start, end: '05:00 PM' }] } } });

const PROBES: Record<FaultName, Probe> = {
  'missing-auth-accepted': p(async (c) => (await c.get('/v1/environments', { key: null })).status),
  'unknown-key-accepted': p(async (c) => (await c.get('/v1/environments', { authorization: 'ApiKey nope' })).status),
  'trailing-garbage-accepted': p(async (c) => (await c.get('/v1/environments', { authorization: `ApiKey ${c.keys.dev}xyz` })).status),
  'bearer-accepted': p(async (c) => (await c.get('/v1/environments', { authorization: `Bearer ${c.keys.dev}` })).status),
  'bare-key-accepted': p(async (c) => (await c.get('/v1/environments', { authorization: c.keys.dev })).status),
  'restricted-can-write': p(async (c) => (await c.post('/v2/topics', { key: 'k' }, { key: c.keys.restricted })).status),
  'restricted-gets-401': p(async (c) => (await c.post('/v2/topics', { key: 'k' }, { key: c.keys.restricted })).status),
  'shared-environment-state': p(async (c) => {
    await createWf(c);
    return (await c.get('/v2/workflows/wf', { key: c.keys.prod })).status;
  }),
  'cross-environment-delete': p(async (c) => {
    await createWf(c);
    return (await c.del('/v2/workflows/wf', undefined, { key: c.keys.prod })).status;
  }),
  'cross-environment-layouts': p(async (c) => {
    await c.post('/v2/layouts', { layoutId: 'l', name: 'L' });
    return (await c.post('/v2/layouts/l/preview', {}, { key: c.keys.prod })).status;
  }),
  'cross-environment-integrations': p(async (c) => {
    await agentSetup(c);
    await c.post('/v1/agents', { name: 'Bot', identifier: 'bot' }, { key: c.keys.prod });
    return (await c.post('/v1/agents/bot/integrations', { integrationIdentifier: 'slack-1' }, { key: c.keys.prod })).status;
  }),
  'cross-environment-agent-links': p(async (c) => {
    await agentSetup(c);
    return (await c.get('/v1/agents/bot/integrations', { key: c.keys.prod })).status;
  }),
  'keyed-get-overwrites-key': p(async (c) => {
    const keyed = { headers: { 'idempotency-key': 'k1' } };
    await c.post('/v2/topics', { key: 'k' }, keyed);
    await c.get('/v1/environments', keyed);
    return (await c.post('/v2/topics', { key: 'k' }, keyed)).status;
  }),
  'other-environments-unlisted': p(async (c) => (await envs(c)).length),
  'idempotency-shared-across-environments': p(async (c) => {
    const keyed = { headers: { 'idempotency-key': 'k1' } };
    await c.post('/v2/topics', { key: 'k' }, keyed);
    return (await c.post('/v2/topics', { key: 'k' }, { ...keyed, key: c.keys.prod })).headers['idempotency-replay'];
  }),
  'idempotency-before-auth': p(async (c) => {
    const keyed = { headers: { 'idempotency-key': 'k1' } };
    await c.post('/v2/topics', { key: 'k' }, keyed);
    return (await c.post('/v2/topics', { key: 'k' }, { ...keyed, key: null })).status;
  }),
  'restricted-replayed': p(async (c) => {
    const keyed = { headers: { 'idempotency-key': 'k1' } };
    await c.post('/v2/topics', { key: 'k' }, keyed);
    return (await c.post('/v2/topics', { key: 'k' }, { ...keyed, key: c.keys.restricted })).status;
  }),
  'x-api-key-accepted': p(async (c) => (await c.get('/v1/environments', { key: null, headers: { 'x-api-key': c.keys.dev } })).status),
  'query-api-key-accepted': p(async (c) => (await c.get(`/v1/environments?apiKey=${c.keys.dev}`, { key: null })).status),

  'error-body-missing-path': p(async (c) => 'path' in (await c.get('/v2/workflows/none')).json),
  'error-body-missing-timestamp': p(async (c) => 'timestamp' in (await c.get('/v2/workflows/none')).json),
  'error-status-code-mismatch': p(async (c) => (await c.get('/v2/workflows/none')).json.statusCode),
  'wrong-422-shape': p(async (c) => Array.isArray((await c.post('/v2/workflows', {})).json.errors)),
  '500-without-errorId': withT(async (c) => {
    const r = await trig(c, { payload: { __crash: true } });
    const m = await c.call('POST', '/v2/topics', { rawBody: '{', headers: { 'content-type': 'application/json' } });
    return [r.status, 'errorId' in (r.json ?? {}), m.status, 'errorId' in (m.json ?? {})];
  }),
  'not-found-as-400': p(async (c) => (await c.get('/v2/workflows/nope')).status),
  'method-not-allowed-500': p(async (c) => (await c.call('PUT', '/v1/environments')).status),
  'html-413': withT(async (c) => (await trig(c, { payload: { big: 'x'.repeat(600 * 1024) } })).headers['content-type']),
  'html-414': p(async (c) => (await c.get(`/v1/environments?f=${'a'.repeat(5000)}`)).headers['content-type']),
  'no-body-limit': withT(async (c) => (await trig(c, { payload: { big: 'x'.repeat(600 * 1024) } })).status),
  'no-uri-limit': p(async (c) => (await c.get(`/v1/environment-variables?search=${'a'.repeat(5000)}`)).status),
  'media-type-ignored': p(async (c) => (await c.call('POST', '/v2/topics', { rawBody: '{"key":"k"}', headers: { 'content-type': 'text/plain' } })).status),
  'no-idempotency-link': p(async (c) => {
    await c.post('/v2/topics', { key: 'a' }, { headers: { 'idempotency-key': 'k1' } });
    return (await c.post('/v2/topics', { key: 'b' }, { headers: { 'idempotency-key': 'k1' } })).headers.link;
  }),
  'error-id-on-4xx': p(async (c) => 'errorId' in (await c.get('/v2/workflows/missing')).json),
  'allow-names-no-method': p(async (c) => (await c.call('PUT', '/v2/workflows')).headers.allow),
  'text-plain-content-type': p(async (c) => (await c.get('/v1/environments')).headers['content-type']),

  'no-ratelimit-headers': p(async (c) => (await c.get('/v1/environments')).headers['ratelimit-limit']),
  'malformed-policy-header': p(async (c) => (await c.get('/v1/environments')).headers['ratelimit-policy']),
  'burst-below-limit': p(async (c) => (await c.get('/v1/environments')).headers['ratelimit-policy']),
  'fractional-reset': p(async (c) => (await c.get('/v1/environments')).headers['ratelimit-reset']),
  'absolute-reset': p(async (c) => (await c.get('/v1/environments')).headers['ratelimit-reset']),
  'retry-after-milliseconds': p(async (c) => {
    await c.get('/v1/environments');
    return (await c.get('/v1/environments')).headers['retry-after'];
  }, { rateLimits: { global: 0.2 } }),
  'ratelimit-policy-ietf': p(async (c) => (await c.get('/v1/environments')).headers['ratelimit-policy']),
  // a slow refill: the bucket is still below its burst when the second answer reports it
  'remaining-one-high': p(async (c) => {
    await c.get('/v1/environments');
    return (await c.get('/v1/environments')).headers['ratelimit-remaining'];
  }, { rateLimits: { global: 0.5 } }),
  'remaining-not-decremented': p(
    async (c) => {
      await c.get('/v1/environments');
      return (await c.get('/v1/environments')).headers['ratelimit-remaining'];
    },
    { rateLimits: { global: 0.5 } },
  ),
  'bulk-costs-one': p(async (c) => (await c.post('/v1/subscribers/bulk', { subscribers: [] })).headers['ratelimit-remaining'], { rateLimits: { configuration: 20 } }),
  'no-retry-after': p(
    async (c) => {
      let r;
      for (let i = 0; i < 6; i++) r = await trig(c, {});
      return [r!.status, r!.headers['retry-after']];
    },
    { rateLimits: { trigger: 1 } },
  ),
  'retry-after-in-ms': p(
    async (c) => {
      let r;
      for (let i = 0; i < 6; i++) r = await trig(c, {});
      return [r!.status, r!.headers['retry-after']];
    },
    { rateLimits: { trigger: 1 } },
  ),
  'reset-absolute-time': p(async (c) => (await c.post('/v1/subscribers/bulk', { subscribers: [] })).headers['ratelimit-reset'], { rateLimits: { configuration: 20 } }),
  'reset-zero-when-accepted': p(async (c) => (await c.post('/v1/subscribers/bulk', { subscribers: [] })).headers['ratelimit-reset'], { rateLimits: { configuration: 20 } }),
  'limit-too-generous': p(async (c) => (await trig(c, {})).headers['ratelimit-limit']),
  'limit-too-strict': p(async (c) => (await trig(c, {})).headers['ratelimit-limit']),
  'shared-buckets': p(
    async (c) => {
      for (let i = 0; i < 6; i++) await trig(c, {});
      return (await c.get('/v1/environments')).status;
    },
    { rateLimits: { trigger: 1 } },
  ),
  '503-without-retry-after': withT(async (c) => {
    const seen: string[] = [];
    for (let i = 0; i < 50; i++) {
      const r = await trig(c, {});
      if (r.status >= 500) seen.push(`${r.status}:${r.headers['retry-after'] ?? 'none'}`);
    }
    return seen;
  }),

  'idempotency-key-rejected': p(async (c) => (await c.post('/v2/topics', { key: 'k' }, { headers: { 'idempotency-key': 'abc' } })).status),
  'idempotency-key-max-64': p(async (c) => (await c.post('/v2/topics', { key: 'k' }, { headers: { 'idempotency-key': 'k'.repeat(100) } })).status),
  'idempotency-ignored': p(async (c) => {
    await c.post('/v2/topics', { key: 'k' }, { headers: { 'idempotency-key': 'i' } });
    const r = await c.post('/v2/topics', { key: 'k' }, { headers: { 'idempotency-key': 'i' } });
    return [r.status, r.headers['idempotency-replay'], r.headers['idempotency-key']];
  }),
  'no-replay-header': p(async (c) => {
    await c.post('/v2/topics', { key: 'k' }, { headers: { 'idempotency-key': 'i' } });
    return (await c.post('/v2/topics', { key: 'k' }, { headers: { 'idempotency-key': 'i' } })).headers['idempotency-replay'];
  }),
  'replay-wrong-status': p(async (c) => {
    await c.post('/v2/topics', { key: 'k' }, { headers: { 'idempotency-key': 'i' } });
    return (await c.post('/v2/topics', { key: 'k' }, { headers: { 'idempotency-key': 'i' } })).status;
  }),
  'replay-reprocesses': p(async (c) => {
    await c.post('/v2/workflows', wfBody(), { headers: { 'idempotency-key': 'i' } });
    return (await c.post('/v2/workflows', wfBody(), { headers: { 'idempotency-key': 'i' } })).status;
  }),
  'idempotency-race': p(
    async (c) => {
      await c.workflow('t');
      const send = () => c.post('/v1/events/trigger', { name: 't', to: ['s1'] }, { headers: { 'idempotency-key': 'race' } });
      const rs = await Promise.all(Array.from({ length: 20 }, send));
      return rs.filter((r) => r.status === 201 && r.headers['idempotency-replay'] === undefined).length;
    },
    { idempotentProcessingDelayMs: 100 },
  ),
  'reused-key-422-without-message': p(async (c) => {
    await c.post('/v2/topics', { key: 'a' }, { headers: { 'idempotency-key': 'k1' } });
    return (await c.post('/v2/topics', { key: 'b' }, { headers: { 'idempotency-key': 'k1' } })).json.message;
  }),
  'in-flight-409-without-message': p(
    async (c) => {
      await c.workflow('t');
      const send = () => c.post('/v1/events/trigger', { name: 't', to: ['s1'] }, { headers: { 'idempotency-key': 'busy' } });
      const rs = await Promise.all([send(), send()]);
      return rs.find((r) => r.status === 409)?.json.message;
    },
    { idempotentProcessingDelayMs: 100 },
  ),
  'completed-key-forgotten-early': p(async (c) => {
    const keyed = { headers: { 'idempotency-key': 'kept' } };
    await c.post('/v2/workflows', wfBody(), keyed);
    // why: only Date is faked, so the store sees 11 s pass while the sockets keep their real timers
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 11_000 });
    try {
      return (await c.post('/v2/workflows', wfBody(), keyed)).status;
    } finally {
      vi.useRealTimers();
    }
  }),
  'in-flight-lock-expires-early': p(
    async (c) => {
      await c.workflow('t');
      const send = () => c.post('/v1/events/trigger', { name: 't', to: ['s1'] }, { headers: { 'idempotency-key': 'late' } });
      const first = send();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const rs = await Promise.all([first, send()]);
      return rs.map((r) => r.status);
    },
    { idempotentProcessingDelayMs: 200 },
  ),
  'no-idempotency-key-echo': p(async (c) => (await c.post('/v2/topics', { key: 'echo' }, { headers: { 'idempotency-key': 'echo' } })).headers['idempotency-key']),
  'replay-consumes-token': p(
    async (c) => {
      await c.post('/v2/topics', { key: 'k' }, { headers: { 'idempotency-key': 'i' } });
      return (await c.post('/v2/topics', { key: 'k' }, { headers: { 'idempotency-key': 'i' } })).headers['ratelimit-remaining'];
    },
    { rateLimits: { configuration: 0.5 } },
  ),

  'workflow-response-missing-slug': p(async (c) => 'slug' in (await createWf(c)).json.data),
  'workflow-create-200': p(async (c) => (await createWf(c)).status),
  'empty-steps-rejected': p(async (c) => (await createWf(c, { steps: [] })).status),
  'payload-schema-vendor-keyword-rejected': p(async (c) => (await createWf(c, { payloadSchema: { type: 'object', 'x-order': ['n'] } })).status),
  'payload-example-bare-subschema-crash': p(async (c) => (await createWf(c, { payloadSchema: { type: 'object', properties: { meta: { type: 'object' } } } })).status),
  'active-defaults-true': p(async (c) => (await c.post('/v2/workflows', { name: 'W', workflowId: 'w', steps: [] })).json.data.active),
  'translation-defaults-true': p(async (c) => (await createWf(c)).json.data.isTranslationEnabled),
  'source-echoed': p(async (c) => '__source' in (await createWf(c, { __source: 'dashboard' })).json.data),
  'workflow-fields-not-echoed': p(async (c) => {
    const d = (await createWf(c, { description: 'd', tags: ['a'] })).json.data;
    return [d.description, d.tags];
  }),
  'agent-missing-when-unassigned': p(async (c) => 'agent' in (await createWf(c)).json.data),
  'missing-name-accepted': p(async (c) => (await c.post('/v2/workflows', { workflowId: 'w', steps: [] })).status),
  'missing-steps-accepted': p(async (c) => (await c.post('/v2/workflows', { name: 'W', workflowId: 'w' })).status),
  'slug-pattern-unchecked': p(async (c) => (await createWf(c, { workflowId: 'bad id!' })).status),
  'step-order-reversed': p(async (c) => {
    const steps = [{ name: 'a', type: 'email' }, { name: 'b', type: 'delay' }, { name: 'c', type: 'sms' }];
    return (await createWf(c, { steps })).json.data.steps.map((s: any) => s.type);
  }),
  'unknown-step-type-accepted': p(async (c) => (await createWf(c, { steps: [{ name: 'a', type: 'fax' }] })).status),
  'http-request-step-rejected': p(async (c) => (await createWf(c, { steps: [{ name: 'a', type: 'http_request' }] })).status),
  'step-name-optional': p(async (c) => (await createWf(c, { steps: [{ type: 'email' }] })).status),
  'step-id-pattern-unchecked': p(async (c) => (await createWf(c, { steps: [{ name: 'a', type: 'email', stepId: 'bad id' }] })).status),
  'preferences-dropped': p(async (c) => 'preferences' in (await createWf(c, { preferences: { user: { all: { enabled: true, readOnly: false } } } })).json.data),
  'agent-dropped': p(async (c) => (await createWf(c, { agent: { identifier: 'bot' } })).json.data.agent),
  'agent-providers-dropped': p(async (c) => (await createWf(c, { agent: { identifier: 'bot', providers: { sendgrid: { replyTo: 'a@b.co' } } } })).json.data.agent),
  'timestamps-not-iso': p(async (c) => /^\d{4}-\d\d-\d\dT/.test((await createWf(c)).json.data.createdAt)),
  'bad-origin-enum': p(async (c) => (await createWf(c)).json.data.origin),
  'severity-low-dropped': p(async (c) => (await createWf(c, { severity: 'low' })).json.data.severity),
  'workflow-preferences-channels-limited': p(async (c) => (await createWf(c, { preferences: { workflow: { channels: { tool: { enabled: false } } } } })).status),
  'agent-empty-providers-null': p(async (c) => (await createWf(c, { agent: { identifier: 'bot', providers: {} } })).json.data.agent),
  'falsy-fields-dropped': p(async (c) => 'description' in (await createWf(c, { description: '', validatePayload: false })).json.data),
  'workflow-id-lower-cased': p(async (c) => (await c.post('/v2/workflows', wfBody({ workflowId: 'Wf-Mixed' }))).json.data.workflowId),
  'given-step-id-replaced': p(async (c) => (await createWf(c, { steps: [{ name: 'Inbox', type: 'in_app', stepId: 'Given-Id' }] })).json.data.steps[0].stepId),
  'empty-objects-null': p(async (c) => (await createWf(c, { payloadSchema: {} })).json.data.payloadSchema),
  'timestamps-rfc1123': p(async (c) => (await createWf(c)).json.data.createdAt.endsWith('GMT')),
  'workflow-status-lower-case': p(async (c) => (await createWf(c)).json.data.status),
  'override-source-renamed': prefProbe(async (c) => (await prefs(c, { workflowId: 'p1', channels: { email: false } })).json.data.workflows[0].overrides),
  'step-origin-missing': p(async (c) => (await createWf(c)).json.data.steps[0].origin),
  'step-database-id-mistyped': p(async (c) => typeof (await createWf(c)).json.data.steps[0].workflowDatabaseId),
  'error-message-nested': p(async (c) => Array.isArray((await c.get('/v2/workflows/none')).json.message)),
  'actor-null-fields-refused': withT(async (c) => (await trig(c, { actor: { subscriberId: 'a1', firstName: null, data: null } })).status),
  'topic-recipient-refused': withT(async (c) => (await trig(c, { to: ['s1', { type: 'Topic', topicKey: 'x' }] })).status),
  'lone-recipient-invalid': withT(async (c) => (await trig(c, { to: 's1' })).json.data.status),

  'agi-wrong-integration': p(async (c) => {
    const { link } = await agentSetup(c);
    return (await c.patch(`/v1/agents/bot/integrations/${link._id}`, { integrationIdentifier: 'slack-1' })).json.data.integration.identifier;
  }),
  'agi-missing-identifier-accepted': p(async (c) => {
    const { link } = await agentSetup(c);
    return (await c.patch(`/v1/agents/bot/integrations/${link._id}`, {})).status;
  }),
  'agi-internal-id-accepted': p(async (c) => {
    const { link, slack } = await agentSetup(c);
    return (await c.patch(`/v1/agents/bot/integrations/${link._id}`, { integrationIdentifier: slack._id })).status;
  }),
  'agi-foreign-link-accepted': p(async (c) => {
    await agentSetup(c);
    await c.post('/v1/agents', { name: 'Other', identifier: 'other' });
    const foreign = (await c.post('/v1/agents/other/integrations', { integrationIdentifier: 'slack-1' })).json.data;
    return (await c.patch(`/v1/agents/bot/integrations/${foreign._id}`, { integrationIdentifier: 'inbox-1' })).status;
  }),
  'connected-at-set': p(async (c) => (await agentSetup(c)).link.connectedAt),

  'ts-delete-ignored': tsProbe(async (c) => {
    await delSubs(c, { subscriptions: [{ identifier: 't:a' }] });
    return (await listSubs(c)).length;
  }),
  'ts-subscriber-only-ignored': tsProbe(async (c) => {
    await c.post('/v2/topics/t/subscriptions', { subscriptions: [{ identifier: 't:a:second', subscriberId: 'a' }] });
    await delSubs(c, { subscriptions: [{ subscriberId: 'a' }] });
    return (await listSubs(c)).map((s) => s.identifier);
  }),
  'ts-no-partial-errors': tsProbe(async (c) => (await delSubs(c, { subscriptions: [{ subscriberId: 'a' }, { subscriberId: 'ghost' }] })).json.errors.length),
  'ts-partial-400': tsProbe(async (c) => (await delSubs(c, { subscriptions: [{ subscriberId: 'a' }, { subscriberId: 'ghost' }] })).status),
  'ts-wrong-total': tsProbe(async (c) => (await delSubs(c, { subscriptions: [{ subscriberId: 'a' }, { subscriberId: 'ghost' }] })).json.meta.totalCount),
  'ts-shared-cap': tsProbe(async (c) => (await delSubs(c, { subscriptions: ghosts(60), subscriberIds: ghosts(60).map((g) => g.subscriberId) })).status),
  'ts-cap-counts-subscriber-entries': tsProbe(async (c) => (await delSubs(c, { subscriptions: ghosts(101).map((g) => ({ identifier: `t:${g.subscriberId}` })) })).status),
  'ts-cap-per-entry-kind': tsProbe(async (c) => (await delSubs(c, { subscriptions: [...ghosts(50), ...ghosts(51).map((g) => ({ identifier: `t:${g.subscriberId}` }))] })).status),
  'ts-partial-207': tsProbe(async (c) => (await delSubs(c, { subscriptions: [{ subscriberId: 'a' }, { subscriberId: 'ghost' }] })).status),
  'ts-cap-off': tsProbe(async (c) => (await delSubs(c, { subscriptions: ghosts(101) })).status),
  'ts-cap-off-by-one': tsProbe(async (c) => (await delSubs(c, { subscriptions: ghosts(100) })).status),
  'ts-cap-partial-remove': tsProbe(async (c) => {
    await delSubs(c, { subscriptions: [{ subscriberId: 'a' }, ...ghosts(100)] });
    return (await listSubs(c)).length;
  }),
  'ts-cap-off-deprecated': tsProbe(async (c) => (await delSubs(c, { subscriberIds: ghosts(101).map((g) => g.subscriberId) })).status),
  'ts-deprecated-ignored': tsProbe(async (c) => (await delSubs(c, { subscriberIds: ['a'] })).json.meta),
  'ts-bad-identifier': tsProbe(async (c) => (await listSubs(c))[0].identifier),
  'ts-bad-context-keys': tsProbe(async (c) => (await listSubs(c))[0].contextKeys),
  'ts-unknown-identifier-counted': tsProbe(async (c) => (await delSubs(c, { subscriptions: [{ identifier: 't:a' }, { identifier: 't:nobody' }] })).json.meta),
  'ts-identifier-pair-unchecked': tsProbe(async (c) => (await delSubs(c, { subscriptions: [{ identifier: 't:a', subscriberId: 'b' }] })).json.meta),
  'ts-identifier-pair-refused': tsProbe(async (c) => (await delSubs(c, { subscriptions: [{ identifier: 't:a', subscriberId: 'a' }] })).json.meta),
  'ts-empty-entries-dropped': tsProbe(async (c) => (await delSubs(c, { subscriptions: [{}, {}] })).json.meta),

  'lp-channel-provider-id-required': p(async (c) => previewStatus(c, previewOf({ channels: [{ credentials: { deviceTokens: ['t'] } }] }))),
  'lp-channel-provider-id-not-filled': p(async (c) => { await c.post('/v2/layouts', { layoutId: 'l', name: 'L' }); return (await c.post('/v2/layouts/l/preview', previewOf({ channels: [{ credentials: { webhookUrl: 'https://h.example.com/x' } }] }))).json.data.previewPayloadExample.subscriber.channels[0].providerId; }),
  'lp-missing-schema': p(async (c) => 'schema' in (await layoutPreview(c))),
  'lp-preview-body-not-string': p(async (c) => typeof (await layoutPreview(c)).result.preview.body),
  'lp-wrong-type': p(async (c) => (await layoutPreview(c)).result.type),
  'lp-subscriber-dropped': p(async (c) => (await layoutPreview(c)).previewPayloadExample.subscriber.firstName),
  'lp-optional-fields-required': p(async (c) => previewStatus(c, {})),
  'lp-typed-fields-rejected': p(async (c) => previewStatus(c, previewOf({ isOnline: true }))),
  'lp-field-types-unchecked': p(async (c) => previewStatus(c, previewOf({ firstName: 5 }))),
  'lp-channel-entries-unchecked': p(async (c) => previewStatus(c, previewOf({ channels: [{ providerId: 5 }] }))),

  'env-var-list-not-array': evProbe(async (c) => Array.isArray(await varList(c))),
  'unmasked-secrets': evProbe(async (c) => (await varList(c, '?search=API_TOKEN'))[0].values[0].value),
  'secret-mask-contains-plaintext': evProbe(async (c) => (await varList(c, '?search=API_TOKEN'))[0].values[0].value),
  'non-secret-masked': evProbe(async (c) => (await varList(c, '?search=PLAIN'))[0].values[0].value),
  'env-var-values-single-env': evProbe(async (c) => (await varList(c, '?search=PLAIN'))[0].values.length),
  'search-case-sensitive': evProbe(async (c) => (await varList(c, '?search=api_tok')).length),
  'secret-mask-base64': evProbe(async (c) => (await varList(c, '?search=API_TOKEN'))[0].values[0].value),
  'other-environment-secrets-unmasked': evProbe(async (c) => (await varList(c, '?search=API_TOKEN'))[0].values.map((v: any) => v.value)),
  'search-matches-values': evProbe(async (c) => (await varList(c, '?search=plain-dev')).length),
  'search-length-in-bytes': p(async (c) => (await c.get(`/v1/environment-variables?search=${encodeURIComponent('\u00e9'.repeat(256))}`)).status),
  'search-prefix-only': evProbe(async (c) => (await varList(c, '?search=TOKEN')).length),
  'search-length-unchecked': evProbe(async (c) => (await c.get('/v1/environment-variables?search=' + 'a'.repeat(257))).status),
  'search-limit-off-by-one': evProbe(async (c) => (await c.get('/v1/environment-variables?search=' + 'a'.repeat(256))).status),
  'search-regex-unescaped': evProbe(async (c) => (await c.get('/v1/environment-variables?search=' + encodeURIComponent('API_(T'))).status),

  'environment-bad-type': p(async (c) => (await envs(c)).map((e) => e.type)),
  'foreign-organization-listed': p(async (c) => new Set((await envs(c)).map((e) => e._organizationId)).size),
  'own-environment-missing': p(async (c) => (await envs(c, c.keys.prod)).map((e) => e.type)),
  'api-keys-leaked': p(async (c) => (await envs(c, c.keys.restricted)).some((e) => e.apiKeys)),

  'pref-channels-email-sms-only': prefProbe(async (c) => (await prefs(c, { channels: { tool: false } })).json.data.global.channels.tool),
  'pref-context-rejected': prefProbe(async (c) => (await prefs(c, { channels: { email: false }, context: { tenant: 'acme' } })).status),
  'pref-context-empty-value-rejected': prefProbe(async (c) => (await prefs(c, { context: { tenant: '' } })).status),
  'schedule-hour-12-rejected': prefProbe(async (c) => (await prefs(c, { schedule: schedule('12:00 AM') })).status),
  'schedule-hour-00-accepted': prefProbe(async (c) => (await prefs(c, { schedule: schedule('00:00 AM') })).status),
  'schedule-weekend-dropped': prefProbe(async (c) => Object.keys((await prefs(c, { schedule: { isEnabled: true, weeklySchedule: { sunday: { isEnabled: true, hours: [] } } } })).json.data.global.schedule.weeklySchedule)),
  'pref-global-ignored': prefProbe(async (c) => (await prefs(c, { channels: { email: false } })).json.data.global.channels.email),
  'pref-slug-not-resolved': prefProbe(async (c, wf) => (await prefs(c, { channels: { email: false }, workflowId: wf.slug })).status),
  'pref-workflow-update-leaks': prefProbe(async (c) => {
    const d = (await prefs(c, { channels: { sms: false }, workflowId: 'p1' })).json.data;
    return d.workflows.find((w: any) => w.workflow.identifier === 'p2').channels.sms;
  }),
  'schedule-dropped': prefProbe(async (c) => (await prefs(c, { schedule: schedule('09:00 AM') })).json.data.global.schedule),
  'schedule-24h-accepted': prefProbe(async (c) => (await prefs(c, { schedule: schedule('13:00') })).status),
  'schedule-weekly-schedule-required': prefProbe(async (c) => (await prefs(c, { schedule: { isEnabled: false } })).status),
  'schedule-day-hours-required': prefProbe(async (c) => (await prefs(c, { schedule: { isEnabled: true, weeklySchedule: { monday: { isEnabled: false } } } })).status),
  'schedule-hour-strict-form': prefProbe(async (c) => (await prefs(c, { schedule: schedule('9:00 AM') })).status),
  'schedule-hour-suffix-accepted': prefProbe(async (c) => (await prefs(c, { schedule: schedule('09:00 AM EST') })).status),
  'schedule-is-enabled-omitted': prefProbe(async (c) => (await prefs(c, { schedule: { weeklySchedule: { monday: { hours: [] } } } })).json.data.global.schedule),
  'pref-invalid-partially-applied': prefProbe(async (c) => {
    await prefs(c, { channels: { push: false }, schedule: schedule('25:00') });
    return (await c.get('/v2/subscribers/sub/preferences')).json.data.global.channels.push;
  }),
  'pref-non-boolean-accepted': prefProbe(async (c) => (await prefs(c, { channels: { email: 'no' } })).status),
  'pref-no-overrides': prefProbe(async (c) => (await prefs(c, { channels: { sms: false }, workflowId: 'p1' })).json.data.workflows[0].overrides),
  'later-override-dropped': prefProbe(async (c) => {
    await prefs(c, { channels: { email: false }, workflowId: 'p1' });
    return (await prefs(c, { channels: { sms: false }, workflowId: 'p1' })).json.data.workflows[0].overrides;
  }),
  'schedule-cleared-by-update': prefProbe(async (c) => {
    await prefs(c, { schedule: schedule('09:00 AM') });
    return (await prefs(c, { channels: { email: false } })).json.data.global.schedule;
  }),

  'trigger-wrong-status': withT(async (c) => (await trig(c, {})).json.data.status),
  'trigger-200': withT(async (c) => (await trig(c, {})).status),
  'trigger-missing-transaction-id': withT(async (c) => typeof (await trig(c, {})).json.data.transactionId),
  'recipient-cap-off': withT(async (c) => (await trig(c, { to: Array.from({ length: 101 }, (_, i) => `r${i}`) })).status),
  'recipient-channel-provider-id-required': withT(async (c) => (await trig(c, { to: [{ subscriberId: 's2', channels: [{ credentials: { webhookUrl: 'https://hooks.example.com/x' }, integrationIdentifier: 'slack-1' }] }] })).status),
  'overrides-channel-keys-limited': withT(async (c) => (await trig(c, { overrides: { channels: { push: {} } } })).status),
  'recipient-cap-counts-objects-only': withT(async (c) => (await trig(c, { to: Array.from({ length: 101 }, (_, i) => `r${i}`) })).status),
  'recipient-cap-off-by-one': withT(async (c) => (await trig(c, { to: Array.from({ length: 100 }, (_, i) => `r${i}`) })).status),
  'recipient-cap-partial': withT(async (c) => {
    await trig(c, { to: Array.from({ length: 101 }, (_, i) => ({ subscriberId: `r${i}` })) });
    return (await c.get('/v2/subscribers/r0')).status;
  }),
  'object-recipients-rejected': withT(async (c) => (await trig(c, { to: ['s1', { subscriberId: 'o1', email: 'o@x.io' }] })).status),
  'recipient-channels-rejected': withT(async (c) => (await trig(c, { to: [{ subscriberId: 'o1', channels: [{ providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example.com/x' } }] }] })).status),
  'transaction-id-not-deduplicated': withT(async (c) => {
    await trig(c, { to: [{ subscriberId: 'x1' }], transactionId: 'tx' });
    await trig(c, { to: [{ subscriberId: 'x2' }], transactionId: 'tx' });
    return (await c.get('/v2/subscribers/x2')).status;
  }),
  'transaction-id-not-echoed': withT(async (c) => (await trig(c, { transactionId: 'tx-echo' })).json.data.transactionId),
  'bridge-url-http-allowed': bridge('http://example.com/bridge'),
  'bridge-url-loopback-allowed': bridge('https://127.0.0.1/bridge'),
  'bridge-url-loopback-only-127-0-0-1': bridge('https://127.0.0.2/bridge'),
  'bridge-url-link-local-metadata-only': bridge('https://169.254.0.1/bridge'),
  'bridge-url-ula-fd-only': bridge('https://[fc00::1]/bridge'),
  'bridge-url-localhost-trailing-dot-allowed': bridge('https://localhost./bridge'),
  'bridge-url-hex-ip-allowed': bridge('https://0x7f000001/bridge'),
  'bridge-url-private-allowed': bridge('https://192.168.0.10/bridge'),
  'bridge-url-ipv6-allowed': bridge('https://[::ffff:127.0.0.1]/bridge'),
  'bridge-url-metadata-allowed': bridge('https://metadata.google.internal/'),
  'bridge-url-credentials-allowed': bridge('https://user:pass@example.com/'),
  'bridge-url-ip-echoed': withT(async (c) => (await trig(c, { bridgeUrl: 'https://10.9.8.7/' })).text.includes('10.9.8.7')),
  'bridge-url-rejected-after-run': withT(async (c) => {
    await trig(c, { to: [{ subscriberId: 'bx' }], bridgeUrl: 'https://10.0.0.1/' });
    return (await c.get('/v2/subscribers/bx')).status;
  }),
  'payload-validation-off': withT(async (c) => (await trig(c, { payload: { n: 'x' } })).status, schemaWf),
  'payload-error-wrong-type': withT(async (c) => (await trig(c, { payload: { n: 'x' } })).json.type, schemaWf),
  'payload-error-missing-schema': withT(async (c) => 'schema' in (await trig(c, { payload: { n: 'x' } })).json, schemaWf),
  'valid-payload-rejected': withT(async (c) => (await trig(c, { payload: { n: 1 } })).status, schemaWf),
  'payload-error-required-field-unnamed': withT(async (c) => (await trig(c, { payload: {} })).json.errors, schemaWf),
  'payload-error-value-lost': withT(async (c) => (await trig(c, { payload: { n: 1, list: [1, 'x'] } })).json.errors, richSchemaWf),
  'payload-error-field-as-pointer': withT(async (c) => (await trig(c, { payload: { n: 1, inner: { e: 2 } } })).json.errors, richSchemaWf),
  'payload-error-first-only': withT(async (c) => (await trig(c, { payload: { n: 'x', list: ['y'] } })).json.errors, richSchemaWf),
  'unknown-workflow-processed': withT(async (c) => (await trig(c, { name: 'missing' })).status),
  'inactive-workflow-processed': withT(async (c) => (await trig(c, {})).json.data.status, { active: false }),
  'actor-object-rejected': withT(async (c) => (await trig(c, { actor: { subscriberId: 'act', firstName: 'A' } })).status),
  'tenant-object-rejected': withT(async (c) => (await trig(c, { tenant: { identifier: 'ten', name: 'T' } })).status),
  'agent-id-null-rejected': withT(async (c) => (await trig(c, { agentId: null })).status),
  'context-rejected': withT(async (c) => (await trig(c, { context: { tenant: 'acme' } })).status),
  'activity-feed-link-generic': withT(async (c) => (await trig(c, {})).json.data.activityFeedLink),
  'activity-feed-link-empty': withT(async (c) => (await trig(c, {})).json.data.activityFeedLink),
  'activity-feed-link-without-run': withT(async (c) => (await trig(c, {})).json.data.activityFeedLink, { active: false }),
  'empty-to-processed': withT(async (c) => (await trig(c, { to: [] })).json.data.status),

  'severity-default-high': p(async (c) => (await createWf(c)).json.data.severity),
  'long-step-name-crash': p(async (c) => (await createWf(c, { steps: [{ name: 'n'.repeat(121), type: 'in_app' }] })).status),
  'recipient-data-array-crash': withT(async (c) => (await trig(c, { to: [{ subscriberId: 'd1', data: { rows: [{}] } }] })).status),
  'context-value-object-crash': prefProbe(async (c) => (await prefs(c, { context: { tenant: { id: 'acme' } } })).status),

  'wrong-version-prefix': withT(async (c) => (await trig(c, {})).status),
  'workflows-under-v1': p(async (c) => (await createWf(c)).status),
  'regional-no-ratelimit-headers': p(async (c) => (await c.get('/v1/environments', { base: c.ref.regionalBaseUrl! })).headers['ratelimit-limit'], { regional: true }),
  'regional-no-recipient-cap': p(async (c) => {
    await c.workflow('t');
    return (await trig(c, { to: Array.from({ length: 101 }, (_, i) => `r${i}`) }, { base: c.ref.regionalBaseUrl! })).status;
  }, { regional: true }),
  'regional-broken': p(async (c) => (await c.get('/v1/environments', { base: c.ref.regionalBaseUrl! })).status, { regional: true }),
  'translation-flag-ignored': p(async (c) => (await createWf(c, { isTranslationEnabled: true })).json.data.isTranslationEnabled),
  'partial-preferences-rejected': p(async (c) => (await createWf(c, { preferences: { workflow: { channels: { email: { enabled: false } } } } })).status),
  'user-preferences-channels-dropped': p(async (c) => (await createWf(c, { preferences: { user: { all: { enabled: true } } } })).json.data.preferences.user.channels),
  'bridge-url-172-slash-8-blocked': bridge('https://172.32.0.1/bridge'),
  'bridge-url-ipv6-literal-blocked': bridge('https://[2606:4700:4700::1111]/bridge'),
  'bridge-url-localhost-subdomain-allowed': bridge('https://bridge.localhost/'),
  'bridge-url-partial-credentials-allowed': bridge('https://user@example.com/'),
  'bridge-url-ipv6-link-local-allowed': bridge('https://[fe80::1]/bridge'),
  'overrides-parts-required': withT(async (c) => (await trig(c, { overrides: { email: { from: 'a@x.io' } } })).status),
  'overrides-layout-id-rejected': withT(async (c) => (await trig(c, { overrides: { channels: { email: { layoutId: 'l1' } } } })).status),
  'overrides-null-layout-id-rejected': withT(async (c) => (await trig(c, { overrides: { channels: { email: { layoutId: null } } } })).status),
  'payload-validated-when-disabled': withT(async (c) => (await trig(c, { payload: { n: 'x' } })).status, { ...schemaWf, validatePayload: false }),
  'workflow-preferences-without-channels-crash': p(async (c) => (await createWf(c, { preferences: { workflow: { all: { enabled: false } } } })).status),
  'derived-step-id-not-unique': p(async (c) => (await createWf(c, { steps: [{ name: 'Inbox', type: 'in_app' }, { name: 'Mail', type: 'email', stepId: 'inbox' }] })).status),
  'step-slug-empty': p(async (c) => (await createWf(c)).json.data.steps[0].slug === ''),
  'tags-default-not-empty': p(async (c) => (await createWf(c)).json.data.tags),
  'tag-values-unchecked': p(async (c) => (await createWf(c, { tags: ['a', 7] })).status),
  'null-payload-schema-rejected': p(async (c) => (await createWf(c, { payloadSchema: null })).status),
  'preference-flags-unchecked': p(async (c) => (await createWf(c, { preferences: { user: { all: { enabled: 'yes', readOnly: false } } } })).status),
  'empty-step-name-accepted': p(async (c) => (await createWf(c, { steps: [{ name: '', type: 'in_app' }] })).status),
  'agent-without-providers-crash': p(async (c) => (await createWf(c, { agent: { identifier: 'bot' } })).status),
  'media-type-substring': p(async (c) => (await c.call('POST', '/v2/topics', { rawBody: '{"key":"k"}', headers: { 'content-type': 'x-application/json' } })).status),
  'body-first-piece-only': withT(async (c) => (await trig(c, { payload: { big: 'x'.repeat(200 * 1024) } })).status),
  'chunked-body-ignored': withT(async (c) => (await trig(c, {}, { chunked: true })).status),
  'chunked-body-unlimited': withT(async (c) => (await trig(c, { payload: { big: 'x'.repeat(600 * 1024) } }, { chunked: true })).status),
  'keyed-429-keeps-key': p(
    async (c) => {
      await c.workflow('t');
      const keyed = { headers: { 'idempotency-key': 'k429' } };
      for (let i = 0; i < 8 && (await trig(c, {})).status !== 429; i++);
      const first = await trig(c, {}, keyed);
      await new Promise((resolve) => setTimeout(resolve, Number(first.headers['retry-after']) * 1000));
      return [first.status, (await trig(c, {}, keyed)).status];
    },
    { rateLimits: { trigger: 1 } },
  ),
  'idempotency-body-delimiters-ignored': withT(async (c) => {
    const keyed = { headers: { 'idempotency-key': 'k1' } };
    await c.post('/v1/events/trigger', { name: 't', to: ['s1'], payload: { v: [12] } }, keyed);
    return (await c.post('/v1/events/trigger', { name: 't', to: ['s1'], payload: { v: [1, 2] } }, keyed)).status;
  }),
  'derived-step-id-unslugged': p(async (c) => (await createWf(c, { steps: [{ name: '  Send: now!', type: 'in_app' }] })).json.data.steps[0].stepId),
  'severity-enum-unchecked': p(async (c) => (await createWf(c, { severity: 'urgent' })).status),
  'non-boolean-active-echoed': p(async (c) => (await createWf(c, { active: 'yes' })).status),
  'key-then-garbage-accepted': p(async (c) => (await c.get('/v1/environments', { authorization: `ApiKey ${c.keys.dev} x` })).status),
  'non-string-name-echoed': p(async (c) => (await createWf(c, { name: 5 })).status),
  'scheme-suffix-accepted': p(async (c) => (await c.get('/v1/environments', { authorization: `X-ApiKey ${c.keys.dev}` })).status),
  'null-body-crashes': p(async (c) => (await c.post('/v2/workflows', null)).status),
  'bridge-url-metadata-short-names-allowed': bridge('https://metadata/computeMetadata/v1/'),
  'bridge-url-internal-names-allowed': bridge('https://instance-data.ec2.internal/latest/meta-data/'),
  'bridge-url-ipv4-compatible-allowed': bridge('https://[::127.0.0.1]/'),
  'body-at-limit-refused': withT(async (c) => (await c.post('/v1/events/trigger', undefined, { rawBody: triggerOfBytes(512 * 1024), headers: { 'content-type': 'application/json' } })).status),
  'chunked-body-at-limit-refused': withT(async (c) => (await c.post('/v1/events/trigger', undefined, { rawBody: triggerOfBytes(512 * 1024), headers: { 'content-type': 'application/json' }, chunked: true })).status),
  'channel-without-credentials-crash': withT(async (c) => (await trig(c, { to: [{ subscriberId: 'o1', channels: [{ providerId: 'slack' }] }] })).status),
  'trigger-recipient-replaces-subscriber': prefProbe(async (c) => {
    await prefs(c, { channels: { email: false } });
    await trig(c, { name: 'p1', to: [{ subscriberId: 'sub' }] });
    return (await prefs(c, { channels: { sms: false } })).json.data.global.channels.email;
  }),
  'invalid-payload-schema-accepted': p(async (c) => (await createWf(c, { validatePayload: true, payloadSchema: { type: 'not-a-type' } })).status),
  'duplicate-step-id-accepted': p(async (c) => (await createWf(c, { steps: [{ name: 'A', type: 'in_app', stepId: 'same' }, { name: 'B', type: 'in_app', stepId: 'same' }] })).status),
  'agent-identifier-pattern-unchecked': p(async (c) => (await createWf(c, { agent: { identifier: 'not a slug!' } })).status),
  'bodyless-request-refused': p(async (c) => {
    await c.post('/v2/layouts', { layoutId: 'l', name: 'L' });
    return (await c.post('/v2/layouts/l/preview')).status;
  }),
  'derived-step-id-empty': p(async (c) => (await createWf(c, { steps: [{ name: '通知', type: 'in_app' }] })).json.data.steps[0].stepId),
  'nullable-preferences-refused': p(async (c) => (await createWf(c, { preferences: { user: null, workflow: null } })).status),
  'ts-empty-subscriber-id-refused': tsProbe(async (c) => (await delSubs(c, { subscriberIds: [''] })).status),
  'ts-string-entries-refused': tsProbe(async (c) => (await delSubs(c, { subscriptions: ['a'] })).status),
  'method-not-allowed-no-allow': p(async (c) => (await c.call('PUT', '/v2/workflows')).headers.allow),
};

describe('fault catalog', () => {
  it('every fault names at least one known rule (a drift fault: the place diff must show) and has a description', () => {
    for (const [name, f] of Object.entries(FAULTS)) {
      if ('drift' in f) expect(f.drift, name).toMatch(/^[a-z-]+ \/\S*$/);
      else expect(f.rules.length, name).toBeGreaterThan(0);
      for (const r of f.rules) expect(Object.keys(CATALOG), name).toContain(r);
      expect(f.description.length, name).toBeGreaterThan(10);
    }
  });

  it('every MUST rule is broken by at least one fault', () => {
    const covered = new Set<string>(Object.values(FAULTS).flatMap((f) => [...f.rules]));
    const must = (Object.keys(CATALOG) as RuleId[]).filter((id) => CATALOG[id].level === 'MUST');
    expect(must.filter((id) => !covered.has(id))).toEqual([]);
  });

  it('rejects unknown fault names', async () => {
    const { startReference } = await import('../../reference/index.ts');
    await expect(startReference({ faults: ['no-such-fault' as FaultName] })).rejects.toThrow(/Unknown fault/);
  });

  it.each(Object.keys(PROBES) as FaultName[])('%s changes what a client observes', async (fault) => {
    const probe = PROBES[fault];
    const faithful = await withReference({ ...probe.options }, probe.run);
    const faulty = await withReference({ ...probe.options, faults: [fault] }, probe.run);
    expect(faulty).not.toEqual(faithful);
  });
});
