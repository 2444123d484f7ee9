// An HTTP proxy on 127.0.0.1 in front of a good target that makes it deviate in ONE way, as a real team's bug or
// reading of the spec would: the held-out implementations the suite was not written against. Each deviation reads and
// rewrites whole exchanges (bodies are small), so it needs nothing of the reference's code.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface Exchange {
  method: string;
  /** Path and query, as the client sent it. */
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** Sent to the regional base rather than the primary one. */
  regional: boolean;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Deviation {
  name: string;
  /** `violation`: breaks a rule, the suite must fail it; `permitted`: the spec leaves it open, no MUST rule may fail. */
  kind: 'violation' | 'permitted';
  /** For a violation, the rules whose failure (at their own level) catches it. */
  breaks: string[];
  description: string;
  /** Rewrites the request, or answers it without the target. */
  onRequest?(req: Exchange, state: ProxyState): Exchange | Answer;
  /** Rewrites the target's answer. */
  onAnswer?(req: Exchange, res: Answer, state: ProxyState): Answer | Promise<Answer>;
}

/** What a deviation may remember between exchanges (an idempotency cache, the plaintexts it saw). */
export interface ProxyState {
  memory: Map<string, unknown>;
  /** Sends a request to the target as it is (a deviation that needs a second look, e.g. an unfiltered listing). */
  upstream(req: Exchange): Promise<Answer>;
}

export interface DeviatingProxy {
  url: string;
  regionalUrl: string;
  exchanges: number;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer', 'host', 'content-length']);

export async function startDeviatingProxy(deviation: Deviation, upstream: { baseUrl: string; regionalBaseUrl: string }): Promise<DeviatingProxy> {
  const memory = new Map<string, unknown>();
  const send = async (req: Exchange): Promise<Answer> => {
    const base = req.regional ? upstream.regionalBaseUrl : upstream.baseUrl;
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP_BY_HOP.has(k)));
    const res = await request(new URL(req.path, base), {
      method: req.method as 'GET',
      headers,
      body: req.body.length || !['GET', 'HEAD'].includes(req.method) ? req.body : undefined,
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
    return { status: res.statusCode, headers: out, body };
  };
  const state: ProxyState = { memory, upstream: send };
  let exchanges = 0;
  const serve = (regional: boolean) =>
    // a large header limit: the suite's 20,000-character URI must reach the target, not this proxy's own 431
    createServer({ maxHeaderSize: 1 << 20 }, (incoming, outgoing) => {
      void (async () => {
        exchanges += 1;
        const req: Exchange = { method: incoming.method ?? 'GET', path: incoming.url ?? '/', headers: flatHeaders(incoming), body: await readAll(incoming), regional };
        let answer: Answer;
        try {
          const rewritten = deviation.onRequest ? deviation.onRequest(req, state) : req;
          answer = 'status' in rewritten ? rewritten : await send(rewritten);
          if (deviation.onAnswer && !('status' in rewritten)) answer = await deviation.onAnswer(rewritten, answer, state);
        } catch (error) {
          answer = { status: 502, headers: { 'content-type': 'text/plain' }, body: Buffer.from(`deviating proxy: ${error instanceof Error ? error.message : String(error)}`) };
        }
        outgoing.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
        outgoing.end(answer.body);
      })();
    });
  const primary = await listen(serve(false));
  const regional = await listen(serve(true));
  return {
    url: primary.url,
    regionalUrl: regional.url,
    get exchanges() {
      return exchanges;
    },
    async close() {
      await Promise.all([primary.close(), regional.close()]);
    },
  };
}

function flatHeaders(incoming: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(incoming.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

async function readAll(incoming: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function listen(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
