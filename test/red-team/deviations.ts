// The held-out deviations: each one a way a real team breaks the spec (or reads a "not shown" differently, which the
// spec permits), written from the spec's text alone and applied by the deviating proxy in front of a good target.
import type { Answer, Deviation, Exchange, ProxyState } from './deviating-proxy.ts';

const isJson = (res: Answer) => /json/i.test(res.headers['content-type'] ?? '');
const pathOf = (req: Exchange) => req.path.split('?')[0]!;

/** Rewrites a JSON answer's body; anything else passes as it is. */
function rewriteJson(res: Answer, change: (body: unknown) => unknown): Answer {
  if (!isJson(res) || res.body.length === 0) return res;
  let body: unknown;
  try {
    body = JSON.parse(res.body.toString('utf8'));
  } catch {
    return res;
  }
  return { ...res, body: Buffer.from(JSON.stringify(change(body))) };
}

function rewriteRequestJson(req: Exchange, change: (body: Record<string, unknown>) => void): Exchange {
  if (req.body.length === 0) return req;
  try {
    const body = JSON.parse(req.body.toString('utf8')) as Record<string, unknown>;
    if (body === null || typeof body !== 'object') return req;
    change(body);
    return { ...req, body: Buffer.from(JSON.stringify(body)) };
  } catch {
    return req;
  }
}

/** Every object of a JSON value, depth first. */
function* objectsOf(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const v of value) yield* objectsOf(v);
  else if (value !== null && typeof value === 'object') {
    yield value as Record<string, unknown>;
    for (const v of Object.values(value)) yield* objectsOf(v);
  }
}

/** The success DTO, wrapped in `{data}` or not. */
const dto = (body: unknown): Record<string, unknown> | undefined => {
  if (body === null || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  return Object.keys(b).length === 1 && b.data && typeof b.data === 'object' ? (b.data as Record<string, unknown>) : b;
};

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const isWorkflowAnswer = (req: Exchange) => /^\/v2\/workflows(\/[^/]+)?$/.test(pathOf(req));
const replaceHeader = (res: Answer, name: string, value: (v: string) => string): Answer =>
  res.headers[name] === undefined ? res : { ...res, headers: { ...res.headers, [name]: value(res.headers[name]!) } };

/** Environment-variable plaintexts the proxy saw created, by key and environment. */
function rememberPlaintexts(req: Exchange, state: ProxyState) {
  if (req.method !== 'POST' || pathOf(req) !== '/v1/environment-variables') return;
  try {
    const body = JSON.parse(req.body.toString('utf8')) as { key?: string; values?: { _environmentId?: string; value?: string }[] };
    for (const v of body.values ?? []) state.memory.set(`ev:${body.key}:${v._environmentId}`, v.value);
  } catch {
    /* not JSON: the target refuses it */
  }
}

function maskSecrets(res: Answer, state: ProxyState, mask: (plain: string, environmentId: string) => string | undefined): Answer {
  return rewriteJson(res, (body) => {
    const list = Array.isArray(body) ? body : (dto(body) as unknown);
    for (const variable of Array.isArray(list) ? (list as Record<string, unknown>[]) : []) {
      if (!variable.isSecret || !Array.isArray(variable.values)) continue;
      for (const v of variable.values as { _environmentId: string; value: string }[]) {
        const plain = state.memory.get(`ev:${variable.key}:${v._environmentId}`);
        if (typeof plain !== 'string') continue;
        const shown = mask(plain, v._environmentId);
        if (shown !== undefined) v.value = shown;
      }
    }
    return body;
  });
}

export const DEVIATIONS: Deviation[] = [
  // Echoes that never see a hard value
  {
    name: 'falsy-fields-dropped',
    kind: 'violation',
    breaks: ['WF-02'],
    description: 'The workflow serializer leaves out fields whose value is "", false, 0 or [] (omitempty)',
    onAnswer: (req, res) =>
      isWorkflowAnswer(req)
        ? rewriteJson(res, (body) => {
            for (const o of objectsOf(body)) for (const [k, v] of Object.entries(o)) if (v === '' || v === false || v === 0 || (Array.isArray(v) && v.length === 0)) delete o[k];
            return body;
          })
        : res,
  },
  {
    name: 'workflow-id-lowercased',
    kind: 'violation',
    breaks: ['WF-02'],
    description: 'A workflow answer gives `workflowId` in lower case',
    onAnswer: (req, res) =>
      isWorkflowAnswer(req)
        ? rewriteJson(res, (body) => {
            const w = dto(body);
            if (w && typeof w.workflowId === 'string') w.workflowId = w.workflowId.toLowerCase();
            return body;
          })
        : res,
  },
  {
    name: 'step-id-regenerated',
    kind: 'violation',
    breaks: ['WF-02'],
    description: 'A given `stepId` is not kept: each step answers `step-<n>`',
    onAnswer: (req, res) =>
      isWorkflowAnswer(req)
        ? rewriteJson(res, (body) => {
            const steps = dto(body)?.steps;
            if (Array.isArray(steps)) steps.forEach((s: Record<string, unknown>, i) => (s.stepId = `step-${i + 1}`));
            return body;
          })
        : res,
  },
  {
    name: 'payload-schema-null',
    kind: 'violation',
    breaks: ['WF-02'],
    description: 'A stored `payloadSchema` is answered as null',
    onAnswer: (req, res) =>
      isWorkflowAnswer(req)
        ? rewriteJson(res, (body) => {
            const w = dto(body);
            if (w && w.payloadSchema !== undefined) w.payloadSchema = null;
            return body;
          })
        : res,
  },
  // Isolation and credentials
  {
    name: 'idempotency-cache-by-key-only',
    kind: 'violation',
    breaks: ['AUTH-01', 'AUTH-05'],
    description: 'An idempotency cache in front of authentication, keyed by the key alone (not by environment)',
    onRequest: (req, state) => {
      const key = req.headers['idempotency-key'];
      const cached = key && state.memory.get(`idem:${key}`);
      return cached ? { ...(cached as Answer), headers: { ...(cached as Answer).headers, 'idempotency-replay': 'true' } } : req;
    },
    onAnswer: (req, res, state) => {
      const key = req.headers['idempotency-key'];
      if (key && ['POST', 'PATCH'].includes(req.method) && res.status < 300) state.memory.set(`idem:${key}`, res);
      return res;
    },
  },
  {
    name: 'x-api-key-accepted',
    kind: 'violation',
    breaks: ['AUTH-01'],
    description: 'A key in `X-Api-Key` (or `?apiKey=`) is taken when `Authorization` is missing',
    onRequest: (req) => {
      if (req.headers.authorization !== undefined) return req;
      const fromQuery = new URL(req.path, 'http://x').searchParams.get('apiKey');
      const key = req.headers['x-api-key'] ?? fromQuery;
      return key ? { ...req, headers: { ...req.headers, authorization: `ApiKey ${key}` } } : req;
    },
  },
  // Masking
  {
    name: 'secret-base64-mask',
    kind: 'violation',
    breaks: ['EV-02'],
    description: 'Secret values are "masked" as their base64',
    onRequest: (req, state) => (rememberPlaintexts(req, state), req),
    onAnswer: (req, res, state) => (req.method === 'GET' && pathOf(req) === '/v1/environment-variables' ? maskSecrets(res, state, (p) => Buffer.from(p).toString('base64')) : res),
  },
  {
    name: 'other-environments-unmasked',
    kind: 'violation',
    breaks: ['EV-02'],
    description: "Only the caller's environment is masked: the other environments' secrets come back in plain text",
    onRequest: (req, state) => {
      rememberPlaintexts(req, state);
      if (req.method === 'GET' && pathOf(req) === '/v1/environments') state.memory.set('lastEnvironmentsKey', req.headers.authorization);
      return req;
    },
    onAnswer: async (req, res, state) => {
      if (req.method !== 'GET' || pathOf(req) !== '/v1/environment-variables') return res;
      // the caller's own environment: the one whose listing of environments holds its key
      const own = await ownEnvironmentId(req, state);
      return maskSecrets(res, state, (plain, env) => (env === own ? undefined : plain));
    },
  },
  // Filters and caps
  {
    name: 'filter-matches-values',
    kind: 'violation',
    breaks: ['EV-04'],
    description: 'The key filter also matches variables whose value contains the text',
    onAnswer: async (req, res, state) => {
      const search = new URL(req.path, 'http://x').searchParams.get('search');
      if (req.method !== 'GET' || pathOf(req) !== '/v1/environment-variables' || !search || res.status !== 200) return res;
      const all = await state.upstream({ ...req, path: '/v1/environment-variables' });
      return rewriteJson(all, (body) => {
        const keep = (v: Record<string, unknown>) =>
          String(v.key).toLowerCase().includes(search.toLowerCase()) || ((v.values as { value: string }[]) ?? []).some((x) => String(x.value).toLowerCase().includes(search.toLowerCase()));
        return Array.isArray(body) ? body.filter(keep) : { ...(body as object), data: ((dto(body) as unknown as Record<string, unknown>[]) ?? []).filter(keep) };
      });
    },
  },
  {
    name: 'filter-prefix-only',
    kind: 'violation',
    breaks: ['EV-04'],
    description: 'The key filter matches only keys that start with the text',
    onAnswer: (req, res) => {
      const search = new URL(req.path, 'http://x').searchParams.get('search');
      if (req.method !== 'GET' || pathOf(req) !== '/v1/environment-variables' || !search) return res;
      const keep = (v: Record<string, unknown>) => String(v.key).toLowerCase().startsWith(search.toLowerCase());
      return rewriteJson(res, (body) => (Array.isArray(body) ? body.filter(keep) : { data: ((dto(body) as unknown as Record<string, unknown>[]) ?? []).filter(keep) }));
    },
  },
  {
    name: 'filter-cap-in-bytes',
    kind: 'violation',
    breaks: ['EV-05'],
    description: 'The 256-character filter cap is counted in UTF-8 bytes',
    onRequest: (req) => {
      const search = new URL(req.path, 'http://x').searchParams.get('search');
      if (req.method !== 'GET' || pathOf(req) !== '/v1/environment-variables' || search === null || Buffer.byteLength(search) <= 256) return req;
      return errorAnswer(422, pathOf(req), 'search must be shorter than or equal to 256 characters');
    },
  },
  // Header semantics
  {
    name: 'reset-absolute',
    kind: 'violation',
    breaks: ['RL-02'],
    description: '`RateLimit-Reset` is an absolute Unix time',
    onAnswer: (_req, res) => replaceHeader(res, 'ratelimit-reset', (v) => String(Math.floor(Date.now() / 1000) + Number(v))),
  },
  {
    name: 'retry-after-ms',
    kind: 'violation',
    breaks: ['RL-02', 'RL-04'],
    description: '`Retry-After` is in milliseconds',
    onAnswer: (_req, res) => replaceHeader(res, 'retry-after', (v) => String(Number(v) * 1000)),
  },
  {
    name: 'remaining-one-high',
    kind: 'violation',
    breaks: ['RL-03'],
    description: '`RateLimit-Remaining` is one higher than the truth',
    onAnswer: (_req, res) => replaceHeader(res, 'ratelimit-remaining', (v) => String(Number(v) + 1)),
  },
  {
    name: 'regional-without-ratelimit-headers',
    kind: 'violation',
    breaks: ['VER-02'],
    description: 'The regional base sends no RateLimit-* headers',
    onAnswer: (req, res) => (req.regional ? { ...res, headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => !k.startsWith('ratelimit-'))) } : res),
  },
  // Error bodies
  {
    name: 'error-id-on-4xx',
    kind: 'violation',
    breaks: ['ERR-11'],
    description: 'Every 4xx JSON error body carries an `errorId`',
    onAnswer: (_req, res) =>
      res.status >= 400 && res.status < 500
        ? rewriteJson(res, (body) => (body && typeof body === 'object' && !Array.isArray(body) ? { ...body, errorId: 'e-4711' } : body))
        : res,
  },
  {
    name: 'html-413',
    kind: 'violation',
    breaks: ['ERR-05'],
    description: 'An oversized body gets an HTML 413 page',
    onAnswer: (_req, res) =>
      res.status === 413 ? { ...res, headers: { ...res.headers, 'content-type': 'text/html' }, body: Buffer.from('<html><body><h1>413 Request Entity Too Large</h1></body></html>') } : res,
  },
  // Range guards
  {
    name: 'bridge-loopback-beyond-127.0.0.1',
    kind: 'violation',
    breaks: ['TRIG-05'],
    description: 'The bridge URL guard blocks 127.0.0.1 but lets the rest of 127.0.0.0/8 and trailing-dot names through',
    onRequest: (req) =>
      req.method === 'POST' && pathOf(req) === '/v1/events/trigger'
        ? rewriteRequestJson(req, (b) => {
            if (typeof b.bridgeUrl !== 'string') return;
            let host = '';
            try {
              host = new URL(b.bridgeUrl).hostname;
            } catch {
              return;
            }
            if ((/^127\./.test(host) && host !== '127.0.0.1') || (host.endsWith('.') && host.length > 1)) delete b.bridgeUrl;
          })
        : req,
  },
  {
    name: 'activity-link-feed-only',
    kind: 'violation',
    breaks: ['TRIG-11'],
    description: '`activityFeedLink` points at the feed, not at the run',
    onAnswer: (req, res) =>
      pathOf(req) === '/v1/events/trigger'
        ? rewriteJson(res, (body) => {
            const t = dto(body);
            if (t && typeof t.activityFeedLink === 'string') t.activityFeedLink = new URL('/activities', t.activityFeedLink).href;
            return body;
          })
        : res,
  },
  // Documented fields never sent
  {
    name: 'chat-channel-ignored',
    kind: 'violation',
    breaks: ['PREF-01'],
    description: 'A preference update drops the `chat` and `push` channels it was given',
    onRequest: (req) =>
      req.method === 'PATCH' && /^\/v2\/subscribers\/[^/]+\/preferences$/.test(pathOf(req))
        ? rewriteRequestJson(req, (b) => {
            const channels = b.channels as Record<string, unknown> | undefined;
            if (channels && typeof channels === 'object') {
              delete channels.chat;
              delete channels.push;
            }
          })
        : req,
  },
  {
    name: 'preference-context-refused',
    kind: 'violation',
    breaks: ['PREF-08'],
    description: 'A preference update with the documented `context` is refused with 422',
    onRequest: (req) => {
      if (req.method !== 'PATCH' || !/^\/v2\/subscribers\/[^/]+\/preferences$/.test(pathOf(req))) return req;
      try {
        const b = JSON.parse(req.body.toString('utf8')) as Record<string, unknown>;
        if (b.context !== undefined) return validationAnswer(pathOf(req), 'context', 'property context should not exist');
      } catch {
        /* not JSON */
      }
      return req;
    },
  },
  // What the spec leaves open: none of these may fail a MUST rule
  {
    name: 'timestamps-rfc1123',
    kind: 'permitted',
    breaks: [],
    description: 'Timestamps are written as RFC 1123 dates ("Sun, 29 Nov 2026 07:00:00 GMT")',
    onAnswer: (_req, res) =>
      rewriteJson(res, (body) => {
        for (const o of objectsOf(body)) for (const [k, v] of Object.entries(o)) if (typeof v === 'string' && ISO.test(v)) o[k] = new Date(v).toUTCString();
        return body;
      }),
  },
  {
    name: 'status-lower-case',
    kind: 'permitted',
    breaks: [],
    description: "A workflow's `status` (and `origin`, `severity`) in lower case",
    onAnswer: (req, res) =>
      isWorkflowAnswer(req)
        ? rewriteJson(res, (body) => {
            const w = dto(body);
            if (w) for (const f of ['status', 'origin', 'severity']) if (typeof w[f] === 'string') w[f] = (w[f] as string).toLowerCase();
            return body;
          })
        : res,
  },
  {
    name: 'partial-delete-207',
    kind: 'permitted',
    breaks: [],
    description: 'A partly successful subscription delete answers 207',
    onAnswer: (req, res) => {
      if (req.method !== 'DELETE' || !/^\/v2\/topics\/[^/]+\/subscriptions$/.test(pathOf(req)) || res.status !== 200) return res;
      try {
        const b = JSON.parse(res.body.toString('utf8')) as { errors?: unknown[]; data?: unknown[] };
        return (b.errors?.length ?? 0) > 0 && (b.data?.length ?? 0) > 0 ? { ...res, status: 207 } : res;
      } catch {
        return res;
      }
    },
  },
  {
    name: 'ietf-ratelimit-policy',
    kind: 'permitted',
    breaks: [],
    description: '`RateLimit-Policy` in the IETF structured form `"<category>";q=<limit>;w=<window>`',
    onAnswer: (_req, res) =>
      replaceHeader(res, 'ratelimit-policy', (v) => {
        const m = /^(\d+);w=(\d+).*category="([^"]+)"/.exec(v);
        return m ? `"${m[3]}";q=${m[1]};w=${m[2]}` : v;
      }),
  },
  {
    name: 'unwrapped-success-bodies',
    kind: 'permitted',
    breaks: [],
    description: 'Success bodies are the bare DTO, without the `{data}` wrapper (as the spec shows them)',
    onAnswer: (req, res) =>
      res.status < 300 && !/^\/v2\/topics\/[^/]+\/subscriptions$/.test(pathOf(req))
        ? rewriteJson(res, (body) => (body && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 1 && 'data' in body ? (body as { data: unknown }).data : body))
        : res,
  },
  {
    name: 'vendor-extra-fields',
    kind: 'permitted',
    breaks: [],
    description: 'Every success DTO carries an extra vendor field',
    onAnswer: (_req, res) =>
      res.status < 300
        ? rewriteJson(res, (body) => {
            const d = dto(body);
            if (d && !Array.isArray(d)) d.xVendorTrace = 'abc';
            return body;
          })
        : res,
  },
];

async function ownEnvironmentId(req: Exchange, state: ProxyState): Promise<string | undefined> {
  const cacheKey = `own:${req.headers.authorization}`;
  if (state.memory.has(cacheKey)) return state.memory.get(cacheKey) as string | undefined;
  const res = await state.upstream({ ...req, path: '/v1/environments', body: Buffer.alloc(0) });
  let own: string | undefined;
  try {
    const list = dto(JSON.parse(res.body.toString('utf8'))) as unknown;
    const key = (req.headers.authorization ?? '').replace(/^ApiKey\s+/i, '');
    for (const env of Array.isArray(list) ? (list as { _id: string; apiKeys?: { key: string }[] }[]) : []) if (env.apiKeys?.some((k) => k.key === key)) own = env._id;
  } catch {
    /* unknown: mask nothing differently */
  }
  state.memory.set(cacheKey, own);
  return own;
}

function errorAnswer(status: number, path: string, message: string): Answer {
  return { status, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ statusCode: status, timestamp: new Date().toISOString(), path, message })) };
}

function validationAnswer(path: string, field: string, message: string): Answer {
  const body = { statusCode: 422, timestamp: new Date().toISOString(), path, message: 'Validation Error', errors: { [field]: { messages: [message] } } };
  return { status: 422, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) };
}
