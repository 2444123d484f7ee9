// HTTP plumbing: URI/body limits, auth, rate limits, idempotency, envelope and error bodies.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { App, HandlerResult, RequestContext, RouteDef } from './context.ts';
import { HttpError, ValidationError } from './errors.ts';
import { authenticate, credentialHeader, isForbidden } from './auth.ts';
import { environmentSeenBy } from './isolation-faults.ts';
import type { Router } from './router.ts';
import type { RateLimiter, RateLimitDecision } from './rate-limiter.ts';
import {
  IDEMPOTENCY_DOCS_LINK,
  MAX_KEY_LENGTH,
  inProgressMessage,
  reusedMessage,
  type IdempotencyStore,
  type StoredResponse,
} from './idempotency.ts';
import { canonicalJson, nowIso, sleep } from './util.ts';
import { REFERENCE_HEADER, REFERENCE_VERSION } from './identity.ts';

export const MAX_URI_LENGTH = 4096;
export const DEFAULT_MAX_BODY = 1024 * 1024;
export const TRIGGER_MAX_BODY = 512 * 1024;

export interface PipelineOptions {
  app: App;
  router: Router;
  limiter: RateLimiter | null;
  idempotency: IdempotencyStore | null;
  idempotentProcessingDelayMs: number;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const JSON_MEDIA = /^application\/(?:[\w.+-]*\+)?json(?:\s*;|\s*$)/i;

/** Raised for malformed JSON when the 500-without-errorId fault turns it into a crash. */
class CrashError extends Error {}

export class Pipeline {
  constructor(private readonly o: PipelineOptions) {}

  /** Entry point for both listeners. */
  readonly handle = (req: IncomingMessage, res: ServerResponse, regional: boolean): void => {
    // why: every answer says it comes from the reference, so a run against it is never taken for a candidate's
    res.setHeader(REFERENCE_HEADER, REFERENCE_VERSION);
    this.process(req, res, regional).catch(() => {
      if (!res.headersSent) this.sendError(res, req.url ?? '/', 500, 'Internal server error', {});
      else res.destroy();
    });
  };

  private async process(req: IncomingMessage, res: ServerResponse, regional: boolean): Promise<void> {
    const { app, router, limiter, idempotency } = this.o;
    const url = req.url ?? '/';
    const method = req.method ?? 'GET';
    // why: 414 is answered before anything else and carries no rate-limit or idempotency headers
    if (url.length > MAX_URI_LENGTH && !app.has('no-uri-limit')) {
      req.resume();
      return this.sendError(res, url, 414, 'URI Too Long', {});
    }
    if (regional && app.has('regional-broken')) {
      req.resume();
      return this.sendError(res, url, 404, `Cannot ${method} ${url}`, {});
    }
    const q = url.indexOf('?');
    const path = q >= 0 ? url.slice(0, q) : url;
    let match;
    try {
      match = router.match(method, path);
    } catch (e) {
      req.resume();
      return this.sendError(res, url, 400, e instanceof Error ? e.message : 'Bad request', {});
    }
    const headers: Record<string, string> = {};
    const rawKey = idempotency ? headerValue(req.headers['idempotency-key']) : undefined;
    // the deployed service echoes the key where idempotency applies: POST and PATCH (IDEM-04)
    if (rawKey !== undefined && (method === 'POST' || method === 'PATCH') && !app.has('no-idempotency-key-echo')) headers['Idempotency-Key'] = rawKey;
    if (match.kind === 'not-found') {
      req.resume();
      return this.sendError(res, url, 404, `Cannot ${method} ${path}`, headers);
    }

    // AUTH-06: authentication is decided before any handler or idempotency lookup, so a 401/403 reveals nothing and replays nothing
    const keyed = rawKey !== undefined && idempotency !== null && (method === 'POST' || method === 'PATCH');
    // fault `idempotency-before-auth`: a cache in front of authentication replays any environment's answer
    const cachedBeforeAuth = keyed && app.has('idempotency-before-auth') ? app.org.environments.map((e) => idempotency.stored(scopedKey(e._id, rawKey))).find((r) => r) : undefined;
    if (cachedBeforeAuth) {
      req.resume();
      return this.sendReplay(res, cachedBeforeAuth, headers);
    }
    const auth = authenticate(app, credentialHeader(app, req.headers, new URLSearchParams(q >= 0 ? url.slice(q + 1) : '')));
    if (!auth) {
      req.resume();
      return this.sendError(res, url, 401, 'API Key not found', headers);
    }
    // AUTH-05: one environment's keys never reach another environment's cached answers
    const idemKey = rawKey === undefined ? '' : app.has('idempotency-shared-across-environments') ? rawKey : scopedKey(auth.envId, rawKey);
    const route: RouteDef = match.route;
    const cost = route.bulk && !app.has('bulk-costs-one') ? 100 : 1;
    const bulk = !!route.bulk;
    const envId = auth.envId;
    const peek = (): void => {
      if (limiter && !app.has('no-ratelimit-headers')) Object.assign(headers, limiter.peek(envId, route.category, cost, bulk).headers);
    };

    if (match.kind === 'method-not-allowed') {
      req.resume();
      peek();
      if (app.has('method-not-allowed-500')) return this.sendError(res, url, 500, 'Internal server error', headers, { errorId: 'fault-405' });
      // RFC 9110 §15.5.6: a 405 lists the methods the resource supports
      return this.sendError(res, url, 405, `Method ${method} not allowed on ${path}`, app.has('method-not-allowed-no-allow') ? headers : { ...headers, Allow: (app.has('allow-names-no-method') ? ['Stryker was here', ...match.allowed] : match.allowed).join(', ') });
    }
    if (isForbidden(auth, method) && !app.has('restricted-can-write')) {
      req.resume();
      // fault `restricted-replayed`: the forbidden check comes after the cache, so a used key replays its answer
      const cached = keyed && app.has('restricted-replayed') ? idempotency.stored(idemKey) : undefined;
      if (cached) return this.sendReplay(res, cached, headers);
      peek();
      const status = app.has('restricted-gets-401') ? 401 : 403;
      return this.sendError(res, url, status, 'This API key is not permitted to perform this operation', headers);
    }
    if (rawKey !== undefined) {
      // IDEM-06: a key longer than 255 characters gets 400
      const tooLong = rawKey.length > MAX_KEY_LENGTH || (app.has('idempotency-key-max-64') && rawKey.length > 64);
      if (tooLong || app.has('idempotency-key-rejected')) {
        req.resume();
        peek();
        const msg = tooLong ? `idempotencyKey "${rawKey.slice(0, 32)}…" has more than ${MAX_KEY_LENGTH} characters` : 'Idempotency-Key is not supported';
        return this.sendError(res, url, 400, msg, headers);
      }
    }

    let body: unknown;
    try {
      const limit = app.has('no-body-limit') ? Number.MAX_SAFE_INTEGER : (route.maxBody ?? DEFAULT_MAX_BODY);
      body = await readJsonBody(req, limit, app);
    } catch (e) {
      if (e instanceof CrashError) return this.sendError(res, url, 500, 'Internal server error', headers);
      peek();
      if (e instanceof HttpError) {
        if (e.status === 413) headers['Connection'] = 'close';
        return this.sendError(res, url, e.status, e.message, headers);
      }
      throw e;
    }

    // Idempotency: decided synchronously from here until the in-flight mark is set.
    // IDEM-07: only POST and PATCH are idempotent, so a GET with a key is never replayed
    const idemApplies = rawKey !== undefined && idempotency !== null && (method === 'POST' || method === 'PATCH') && !app.has('idempotency-ignored');
    let fingerprint = '';
    let replayed = false;
    if (idemApplies) {
      fingerprint = method + ' ' + url + ' ' + (app.has('idempotency-body-delimiters-ignored') ? canonicalJson(body).replace(/[[\]{},]/g, '') : canonicalJson(body));
      const r = idempotency.begin(idemKey, fingerprint);
      if (r.kind === 'replay' && !app.has('replay-reprocesses')) {
        if (limiter && !app.has('no-ratelimit-headers')) {
          const d = app.has('replay-consumes-token') ? limiter.consume(envId, route.category, cost, bulk) : limiter.peek(envId, route.category, cost, bulk);
          Object.assign(headers, d.headers);
        }
        return this.sendReplay(res, r.response, headers);
      }
      if (r.kind === 'replay') replayed = true;
      if (r.kind === 'in-progress') {
        peek();
        headers['Retry-After'] = '1';
        if (!app.has('no-idempotency-link')) headers['Link'] = IDEMPOTENCY_DOCS_LINK;
        return this.sendError(res, url, 409, app.has('in-flight-409-without-message') ? '' : inProgressMessage(rawKey), headers);
      }
      // IDEM-05: the same key with another body gets 422 before anything runs
      if (r.kind === 'mismatch') {
        peek();
        if (!app.has('no-idempotency-link')) headers['Link'] = IDEMPOTENCY_DOCS_LINK;
        const msg = app.has('reused-key-422-without-message') ? '' : reusedMessage(rawKey);
        return this.sendError(res, url, 422, msg, headers, { errors: { 'idempotency-key': { messages: [msg], value: rawKey } } });
      }
    }

    if (limiter) {
      const d: RateLimitDecision = limiter.consume(envId, route.category, cost, bulk);
      if (!app.has('no-ratelimit-headers')) Object.assign(headers, d.headers);
      if (!d.allowed) {
        // why: the request was not processed, so its key must not hold a retry off (RL-07)
        if (idemApplies && !app.has('keyed-429-keeps-key')) idempotency!.release(idemKey);
        if (!app.has('no-retry-after')) headers['Retry-After'] = d.retryAfter;
        return this.sendError(res, url, 429, 'API rate limit exceeded', headers);
      }
    }

    if (rawKey !== undefined && this.o.idempotentProcessingDelayMs > 0 && (method === 'POST' || method === 'PATCH')) {
      await sleep(this.o.idempotentProcessingDelayMs);
    }

    const ctx: RequestContext = {
      method,
      path,
      url,
      query: new URLSearchParams(q >= 0 ? url.slice(q + 1) : ''),
      params: match.params,
      body,
      env: app.has('shared-environment-state') ? app.org.dev : environmentSeenBy(app, app.org.environment(envId)),
      auth,
      app,
    };
    let result: HandlerResult;
    try {
      const r = route.handler(ctx);
      result = r instanceof Promise ? await r : r;
    } catch (e) {
      result = this.errorResult(url, e);
    }
    if (result.headers) Object.assign(headers, result.headers);
    const text = result.body === undefined ? undefined : JSON.stringify(result.body);
    if (idemApplies) {
      if (result.status >= 500) idempotency!.release(idemKey);
      else idempotency!.complete(idemKey, fingerprint, { status: result.status, body: text, headers: { ...(result.headers ?? {}) } });
    }
    // fault `keyed-get-overwrites-key`: a keyed GET stores its own answer under the key, over the POST's
    if (method === 'GET' && rawKey !== undefined && idempotency && app.has('keyed-get-overwrites-key')) idempotency.complete(idemKey, `GET ${url}`, { status: result.status, body: text, headers: {} });
    if (replayed) headers['Idempotency-Replay'] = 'true';
    this.write(res, result.status, text, headers);
  }

  private sendReplay(res: ServerResponse, stored: StoredResponse, headers: Record<string, string>): void {
    const { app } = this.o;
    Object.assign(headers, stored.headers);
    if (!app.has('no-replay-header')) headers['Idempotency-Replay'] = 'true';
    this.write(res, app.has('replay-wrong-status') ? 200 : stored.status, stored.body, headers);
  }

  /** Turns a thrown value into the matching error result. */
  private errorResult(url: string, e: unknown): HandlerResult {
    if (e instanceof ValidationError) return { status: 422, body: this.errorBody(422, url, e.message, { errors: e.errors }) };
    if (e instanceof HttpError) {
      const status = e.status === 404 && this.o.app.has('not-found-as-400') ? 400 : e.status;
      return { status, body: this.errorBody(status, url, e.message, e.extra), ...(e.headers ? { headers: e.headers } : {}) };
    }
    return { status: 500, body: this.errorBody(500, url, 'Internal server error') };
  }

  /** The common error body (plus extras); the ERR faults bend it here. */
  errorBody(status: number, url: string, message: unknown, extra?: Record<string, unknown>): Record<string, unknown> {
    const { app } = this.o;
    const body: Record<string, unknown> = {
      statusCode: app.has('error-status-code-mismatch') ? String(status) : status,
      timestamp: nowIso(),
      path: url,
      // why: RL-04 fixes the 429's message; elsewhere only the deployed contract (CLIENT-03) reads its shape
      message: app.has('error-message-nested') && status !== 429 ? [[message]] : message,
    };
    if (app.has('error-body-missing-timestamp')) delete body.timestamp;
    if (app.has('error-body-missing-path')) delete body.path;
    if (extra) Object.assign(body, extra);
    if (extra && 'errors' in extra && status === 422 && app.has('wrong-422-shape')) {
      const errs = extra.errors as Record<string, { messages: string[] }>;
      body.errors = Object.entries(errs).flatMap(([f, v]) => v.messages.map((m) => `${f}: ${m}`));
    }
    if ((status === 500 && !app.has('500-without-errorId')) || app.has('error-id-on-4xx')) body.errorId = randomUUID();
    return body;
  }

  private sendError(
    res: ServerResponse,
    url: string,
    status: number,
    message: unknown,
    headers: Record<string, string>,
    extra?: Record<string, unknown>,
  ): void {
    if (status === 404 && this.o.app.has('not-found-as-400')) status = 400;
    // faults `html-413` and `html-414`: a proxy's HTML page instead of the common error body
    if ((status === 413 && this.o.app.has('html-413')) || (status === 414 && this.o.app.has('html-414'))) return this.writeHtml(res, status, headers);
    this.write(res, status, JSON.stringify(this.errorBody(status, url, message, extra)), headers);
  }

  private writeHtml(res: ServerResponse, status: number, headers: Record<string, string>): void {
    const text = `<html><head><title>${status}</title></head><body><center><h1>${status}</h1></center><hr><center>nginx</center></body></html>`;
    res.writeHead(status, { ...headers, 'Content-Type': 'text/html', 'Content-Length': String(Buffer.byteLength(text)) });
    res.end(text);
  }

  private write(res: ServerResponse, status: number, text: string | undefined, headers: Record<string, string>): void {
    if (text !== undefined && status !== 204) {
      headers['Content-Type'] = this.o.app.has('text-plain-content-type') ? TEXT_TYPE : JSON_TYPE;
      headers['Content-Length'] = String(Buffer.byteLength(text));
      res.writeHead(status, headers);
      res.end(text);
    } else {
      res.writeHead(status, headers);
      res.end();
    }
  }
}

/** Idempotency keys are remembered per environment: the same key in two environments names two requests. */
function scopedKey(envId: string, key: string): string {
  return `${envId} ${key}`;
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

/** How long the rest of an oversized body is discarded before its 413 is sent anyway. */
const CHUNKED_DRAIN_MS = 2_000;

/**
 * Discards a refused body, then rejects: a 413 sent (on a connection then closed) while the client or a proxy in front
 * still writes the body reaches it as a reset, and nginx turns that into a 502 of its own. A body that never ends gets
 * its answer after 2 s all the same.
 */
function drainThen(req: IncomingMessage, error: HttpError): Promise<never> {
  return new Promise((_, reject) => {
    req.once('end', () => reject(error));
    req.once('error', () => reject(error));
    setTimeout(() => reject(error), CHUNKED_DRAIN_MS).unref();
    req.resume();
  });
}

/** Reads at most `limit` bytes; 413 beyond (without buffering the rest), 415 for non-JSON, 400 for bad JSON. */
function readJsonBody(req: IncomingMessage, limit: number, app: App): Promise<unknown> {
  const lenHeader = req.headers['content-length'];
  // a body comes with a Content-Length or in chunks (Transfer-Encoding: chunked, RFC 9112 §6.1)
  if (lenHeader === undefined && (req.headers['transfer-encoding'] === undefined || app.has('chunked-body-ignored'))) return Promise.resolve(undefined);
  const declared = lenHeader === undefined ? -1 : Number(lenHeader);
  if (declared === 0) return Promise.resolve(undefined);
  const tooLarge = () => new HttpError(413, `Request body exceeds the limit of ${limit} bytes`);
  // why: fault `body-at-limit-refused` takes a declared length of exactly the limit for one over it
  if (declared > limit || (declared === limit && app.has('body-at-limit-refused'))) return drainThen(req, tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const onData = (c: Buffer) => {
      if (done) return;
      size += c.length;
      // why: fault `chunked-body-at-limit-refused` counts a body that reaches exactly the limit as one over it
      if (size === limit && app.has('chunked-body-at-limit-refused')) size++;
      // why: a chunked body declares no length, so only this count holds it to the limit
      if (size > limit && !app.has('chunked-body-unlimited')) {
        done = true;
        chunks.length = 0;
        req.removeListener('data', onData);
        req.resume(); // why: discard the rest instead of buffering it
        // why: a 413 sent while the client still writes its chunks, on a connection then closed, reaches it as a reset;
        // so it is sent once the rest is discarded (or after 2 s, for a body that never ends)
        req.once('end', () => reject(tooLarge()));
        setTimeout(() => reject(tooLarge()), CHUNKED_DRAIN_MS).unref();
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.once('error', (e) => {
      if (!done) {
        done = true;
        reject(e);
      }
    });
    req.once('end', () => {
      if (done) return;
      done = true;
      if (size === 0) return resolve(undefined);
      const ct = req.headers['content-type'];
      const jsonMedia = app.has('media-type-substring') ? /application\/json/i : JSON_MEDIA;
      if (ct !== undefined && !jsonMedia.test(ct) && !app.has('media-type-ignored')) return reject(new HttpError(415, `Unsupported Media Type: ${ct}`));
      // why: a body over about 64 KB arrives in several pieces
      const buf = app.has('body-first-piece-only') ? chunks[0]! : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      try {
        resolve(JSON.parse(buf.toString('utf8')));
      } catch {
        reject(app.has('500-without-errorId') ? new CrashError('malformed JSON') : new HttpError(400, 'Malformed JSON in request body'));
      }
    });
  });
}
