// Sends one HTTP request with undici under hard bounds (time, body size) and never throws for HTTP-level trouble.
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { NetworkSettings } from '../../config/settings.ts';
import { dispatcherFor } from '../../config/network-dispatcher.ts';
import { proxyFor } from '../../config/network-settings.ts';

export interface RawRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** A stream is sent piece by piece with `Transfer-Encoding: chunked` (no Content-Length). */
  body?: string | Buffer | Readable;
  timeoutMs: number;
  maxBodyBytes: number;
  /** How the request travels (proxies, CA, client certificate); absent: directly, as for the embedded reference. */
  network?: NetworkSettings;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/**
 * Why no usable response arrived; everything but `too-large` means the target did not really answer. `timeout`: not a
 * byte of the response within the bound; `body-timeout`: the status and headers came, the rest did not.
 */
export type FailureKind = 'timeout' | 'body-timeout' | 'refused' | 'reset' | 'dns' | 'tls' | 'protocol' | 'too-large' | 'other';

/** Faults of the path to the target, not answers of the target: a test that meets one runs again (fixtures/conformance.ts). */
export const TRANSPORT_FAULTS: readonly FailureKind[] = ['reset', 'refused', 'timeout'];

export type TransportResult =
  | { ok: true; response: RawResponse; durationMs: number }
  | { ok: false; error: string; kind: FailureKind; durationMs: number };

/** Connections the client keeps per origin in each worker: more requests in flight queue on them, not at the target. */
export const CONNECTIONS_PER_ORIGIN = 32;

// One keep-alive pool per worker process and network setting: tests share connections the way a real client would.
const sharedAgents = new Map<string, Dispatcher>();
function agent(network: NetworkSettings | undefined): Dispatcher {
  const key = JSON.stringify(network ?? {});
  let found = sharedAgents.get(key);
  if (!found) sharedAgents.set(key, (found = dispatcherFor(network, { connections: CONNECTIONS_PER_ORIGIN, keepAliveTimeout: 4_000, pipelining: 1 })));
  return found;
}

export async function closeTransport(): Promise<void> {
  const current = [...sharedAgents.values()];
  sharedAgents.clear();
  await Promise.all(current.map((a) => a.close().catch(() => undefined)));
}

export async function send(request: RawRequest, dispatcher: Dispatcher = agent(request.network)): Promise<TransportResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(request.timeoutMs);
  let answered = false;
  try {
    const res = await dispatcher.request({
      origin: new URL(request.url).origin,
      path: pathOf(request.url),
      method: request.method as Dispatcher.HttpMethod,
      headers: request.headers,
      body: request.body ?? null,
      signal,
      headersTimeout: request.timeoutMs,
      bodyTimeout: request.timeoutMs,
    });
    answered = true;
    // A declared length over the bound is refused before a byte of the body is read.
    const declared = Number(res.headers['content-length']);
    const text = declared > request.maxBodyBytes ? (res.body.destroy(), undefined) : await readBounded(res.body, request.maxBodyBytes);
    if (text === undefined) return { ok: false, error: `response body larger than ${request.maxBodyBytes} bytes (aborted)`, kind: 'too-large', durationMs: elapsed() };
    return { ok: true, response: { status: res.statusCode, headers: flattenHeaders(res.headers), text }, durationMs: elapsed() };
  } catch (error) {
    const proxy = proxyFor(request.url, request.network);
    return { ok: false, ...explain(error, request.timeoutMs, signal, answered, proxy), durationMs: elapsed() };
  }
}

function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

async function readBounded(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function explain(error: unknown, timeoutMs: number, signal: AbortSignal, answered: boolean, proxy: string | undefined): { error: string; kind: FailureKind } {
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  const tunnel = /^Proxy response \((\d+)\)/.exec(e.message ?? '');
  if (proxy && tunnel) return { kind: 'refused', error: `the proxy ${proxy} refused the tunnel to the target (it answered ${tunnel[1]} to CONNECT): ask for the target to be allowed, or list its host in NO_PROXY if it is reached directly` };
  if (signal.aborted || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_ABORTED') {
    if (answered || code === 'UND_ERR_BODY_TIMEOUT') return { kind: 'body-timeout', error: `the status and headers came, the rest of the body did not within ${timeoutMs} ms (timeouts.requestMs)` };
    return { kind: 'timeout', error: `no response within ${timeoutMs} ms (timeouts.requestMs)` };
  }
  if (isTlsError(code, e.message ?? e.cause?.message)) return { kind: 'tls', error: tlsMessage(code, e.message ?? e.cause?.message) };
  if (proxy && (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')) {
    return { kind: code === 'ECONNREFUSED' ? 'refused' : 'dns', error: `cannot reach the proxy ${proxy} (${code}; set by HTTP_PROXY/HTTPS_PROXY): check its address, or list the target's host in NO_PROXY if it is reached directly` };
  }
  if (code === 'ECONNREFUSED') return { kind: 'refused', error: 'connection refused: nothing is listening at the target address' };
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return { kind: 'reset', error: 'connection reset by the target before the response was complete' };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { kind: 'dns', error: 'the target host name does not resolve' };
  if (code?.startsWith('HPE_') || code === 'UND_ERR_INFO' || /parse error|invalid|does not match the HTTP/i.test(e.message ?? '')) {
    return { kind: 'protocol', error: `the target answered with something that is not valid HTTP (${code ?? e.message})` };
  }
  return { kind: 'other', error: `request failed: ${e.message ?? String(error)}${code ? ` (${code})` : ''}` };
}

function isTlsError(code: string | undefined, message: string | undefined): boolean {
  return /^(ERR_SSL_|ERR_TLS_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/.test(code ?? '') || /SSL routines|wrong version number/i.test(message ?? '');
}

/** A TLS handshake that fails on a plain-HTTP server says so: the fix is the scheme, not the target. */
function tlsMessage(code: string | undefined, message: string | undefined): string {
  const plain = /WRONG_VERSION_NUMBER|wrong version number|packet length too long|http request/i.test(`${code} ${message}`);
  return plain
    ? `TLS handshake failed: the target looks like plain HTTP, not HTTPS (${code ?? message}); try http:// in the target URL`
    : `TLS handshake failed (${code ?? message}): the target's certificate or TLS setup was refused; ${tlsHint(code, message)}`;
}

/** What to set: a certificate of a private CA wants --ca-file (or NODE_EXTRA_CA_CERTS), a target asking for one a client certificate. */
function tlsHint(code: string | undefined, message: string | undefined): string {
  if (/certificate required|alert number 116|alert handshake failure|bad certificate/i.test(`${code} ${message}`)) {
    return 'if the target asks for a client certificate, give --client-cert and --client-key';
  }
  return 'a certificate signed by a private CA is trusted with --ca-file FILE (or NODE_EXTRA_CA_CERTS=FILE)';
}
