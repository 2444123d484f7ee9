// Test helpers: start a reference and talk to it with undici.
import { Readable } from 'node:stream';
import { request } from 'undici';
import { startReference, type ReferenceOptions, type RunningReference } from '../../reference/index.ts';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: any;
}

export interface CallOptions {
  body?: unknown;
  rawBody?: string | Buffer;
  key?: string | null;
  authorization?: string;
  headers?: Record<string, string>;
  base?: string;
  /** Sends the body with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
}

export class Client {
  constructor(readonly ref: RunningReference) {}

  get keys() {
    return this.ref.apiKeys;
  }

  async call(method: string, path: string, o: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.authorization !== undefined) headers.authorization = o.authorization;
    else if (o.key !== null) headers.authorization = `ApiKey ${o.key ?? this.ref.apiKeys.dev}`;
    let body: string | Buffer | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const sent = o.chunked && body !== undefined ? Readable.from([Buffer.from(body)], { objectMode: false }) : body;
    const r = await request((o.base ?? this.ref.baseUrl) + path, { method: method as 'GET', headers, body: sent });
    const text = await r.body.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const h: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.headers)) h[k] = Array.isArray(v) ? v.join(', ') : String(v);
    return { status: r.statusCode, headers: h, text, json };
  }

  post(path: string, body?: unknown, o: CallOptions = {}) {
    return this.call('POST', path, { ...o, body });
  }
  patch(path: string, body?: unknown, o: CallOptions = {}) {
    return this.call('PATCH', path, { ...o, body });
  }
  get(path: string, o: CallOptions = {}) {
    return this.call('GET', path, o);
  }
  del(path: string, body?: unknown, o: CallOptions = {}) {
    return this.call('DELETE', path, { ...o, body });
  }

  async workflow(workflowId: string, extra: Record<string, unknown> = {}): Promise<any> {
    const r = await this.post('/v2/workflows', { name: workflowId, workflowId, active: true, steps: [{ name: 'Inbox', type: 'in_app' }], ...extra });
    if (r.status !== 201 && r.status !== 200) throw new Error(`workflow setup failed: ${r.status} ${r.text}`);
    return r.json.data;
  }

  async subscriber(subscriberId: string): Promise<void> {
    const r = await this.post('/v2/subscribers', { subscriberId, firstName: 'Ada' });
    if (r.status !== 201) throw new Error(`subscriber setup failed: ${r.status} ${r.text}`);
  }

  async topicWith(key: string, subscriberIds: string[]): Promise<void> {
    for (const id of subscriberIds) await this.subscriber(id);
    await this.post('/v2/topics', { key, name: key });
    if (subscriberIds.length) await this.post(`/v2/topics/${key}/subscriptions`, { subscriptions: subscriberIds });
  }
}

export async function withReference<T>(options: ReferenceOptions, fn: (c: Client) => Promise<T>): Promise<T> {
  const ref = await startReference({ regional: false, ...options });
  try {
    return await fn(new Client(ref));
  } finally {
    await ref.close();
  }
}
