// The client every test uses: speaks to the target with a chosen identity, unwraps `{data}`, records every exchange.
import { Readable } from 'node:stream';
import type { Identity } from '../../config/settings.ts';
import { redactorFor, type Redactor } from '../../report/redactor.ts';
import { Skip } from '../conformance/skip.ts';
import type { TargetProfile } from '../target-profile.ts';
import type { Exchange } from './exchange.ts';
import { truncate } from './exchange.ts';
import { Cancelled, cancelledBecause } from './cancellation.ts';
import { probesRoadLimits, roadAnswer } from './intermediary.ts';
import { awaitReserve, noteBucket } from './pacing.ts';
import { send, TRANSPORT_FAULTS, type FailureKind } from './transport.ts';

export type { Identity };

export interface RequestOptions {
  as?: Identity;
  /** Sends this exact Authorization header instead of `ApiKey <key of identity>`; null sends none. */
  authorization?: string | null;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** Serialized as JSON with `Content-Type: application/json`. */
  body?: unknown;
  /** Sent as is; pair it with `contentType`. */
  rawBody?: string | Buffer;
  contentType?: string;
  /** Sends the body with `Transfer-Encoding: chunked` instead of a Content-Length, in pieces of 16 KiB. */
  chunked?: boolean;
  /** Use the regional base address (VER-02). */
  regional?: boolean;
  /** Wait out a 429 (up to timeouts.maxRetryAfterS) instead of returning it; off for rate-limit tests. */
  retryOn429?: boolean;
  /** Sends an idempotent request again (up to this many times) after a transport fault: cleanup and sweeps. */
  transportRetries?: number;
  timeoutMs?: number;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  json: unknown;
  /** The body with a single-key `{data: …}` wrapper removed, as the official SDK does. */
  data: T;
  exchange: Exchange;
}

/**
 * A request the network lost: a reset, a refusal or no answer in time. Read from the error's shape, so that it holds
 * for an ExchangeFailed and for one a test thread reported to the runner (serialized, no longer an instance).
 */
export function lostToNetwork(error: unknown): boolean {
  const e = error as { name?: unknown; exchange?: { errorKind?: FailureKind } } | null | undefined;
  const kind = e?.exchange?.errorKind;
  return e?.name === 'ExchangeFailed' && kind !== undefined && TRANSPORT_FAULTS.includes(kind);
}

/** Thrown when no HTTP response arrived: the message names the exchange and the setting that bounds it. */
export class ExchangeFailed extends Error {
  constructor(readonly exchange: Exchange) {
    super(`${exchange.method} ${exchange.url}: ${exchange.error}`);
    this.name = 'ExchangeFailed';
  }
}

const MAX_BODY_BYTES = 4 * 1024 * 1024;
const MAX_429_RETRIES = 3;
const TRANSPORT_RETRY_PAUSE_MS = 200;
/** Bodies are kept whole up to this size so passive schema checks can parse them. */
const RECORDED_BODY_CHARS = 256 * 1024;

export class ApiClient {
  readonly exchanges: Exchange[] = [];
  readonly redactor: Redactor;
  /** Requests sent and not yet answered (a test that failed may leave some of a concurrent batch in flight). */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    readonly target: TargetProfile,
    private readonly onExchange?: (exchange: Exchange) => void,
  ) {
    this.redactor = redactorFor(target);
  }

  get = <T = any>(path: string, options?: RequestOptions) => this.request<T>('GET', path, options);
  post = <T = any>(path: string, body?: unknown, options?: RequestOptions) => this.request<T>('POST', path, { ...options, body });
  patch = <T = any>(path: string, body?: unknown, options?: RequestOptions) => this.request<T>('PATCH', path, { ...options, body });
  put = <T = any>(path: string, body?: unknown, options?: RequestOptions) => this.request<T>('PUT', path, { ...options, body });
  delete = <T = any>(path: string, options?: RequestOptions & { body?: unknown }) => this.request<T>('DELETE', path, options);

  /** This client, each request sent with `identity`'s key unless it names another: for a test that runs in another environment. */
  actingAs(identity: Identity): ApiClient {
    const view: ApiClient = Object.create(this);
    const own = <O extends RequestOptions>(options?: O) => ({ as: identity, ...options }) as O;
    Object.assign(view, {
      get: (path: string, options?: RequestOptions) => this.get(path, own(options)),
      post: (path: string, body?: unknown, options?: RequestOptions) => this.post(path, body, own(options)),
      patch: (path: string, body?: unknown, options?: RequestOptions) => this.patch(path, body, own(options)),
      put: (path: string, body?: unknown, options?: RequestOptions) => this.put(path, body, own(options)),
      delete: (path: string, options?: RequestOptions & { body?: unknown }) => this.delete(path, own(options)),
      request: (method: string, path: string, options?: RequestOptions) => this.request(method, path, own(options)),
    });
    return view;
  }

  /** The Authorization header a request of this identity carries (for building malformed variants). */
  keyOf(identity: Exclude<Identity, 'none'>): string | undefined {
    return this.target.keys[identity];
  }

  request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const sent = this.requestPaced<T>(method, path, options);
    const tracked = sent.catch(() => undefined);
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
    return sent;
  }

  /**
   * Resolves once every request sent so far has its answer or its error (each is bounded by timeouts.requestMs):
   * cleanup waits for this, so that a creation still on its way cannot land after the deletion meant to undo it.
   */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async requestPaced<T>(method: string, path: string, options: RequestOptions): Promise<ApiResponse<T>> {
    const honour = options.retryOn429 ?? true;
    // Rate-limit tests (retryOn429: false) spend buckets on purpose; every other request keeps a reserve (pacing.ts).
    const caller = `${options.regional ? this.target.regionalBaseUrl : this.target.baseUrl} ${options.as ?? 'primary'}`;
    for (let attempt = 0; ; attempt++) {
      if (honour) await awaitReserve(caller);
      const response = await this.againAfterTransportFaults(() => this.once<T>(method, path, options), options.transportRetries ?? 0);
      if (honour) noteBucket(caller, response.headers);
      const wait = Number(response.headers['retry-after']);
      if (response.status !== 429 || !honour || attempt >= MAX_429_RETRIES) return response;
      if (!Number.isFinite(wait) || wait > this.target.timeouts.maxRetryAfterS) return response;
      await new Promise((resolve) => setTimeout(resolve, Math.max(wait, 0.05) * 1000));
    }
  }

  private async againAfterTransportFaults<T>(send: () => Promise<T>, retries: number): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await send();
      } catch (error) {
        if (attempt >= retries || !lostToNetwork(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, TRANSPORT_RETRY_PAUSE_MS));
      }
    }
  }

  private async once<T>(method: string, path: string, options: RequestOptions): Promise<ApiResponse<T>> {
    const cancelled = cancelledBecause();
    if (cancelled) throw new Cancelled(cancelled);
    // --read-only: a test that would change the target ends as not verified before anything is sent.
    if (this.target.readOnly && !['GET', 'HEAD', 'OPTIONS'].includes(method)) throw new Skip('not-verified', `--read-only: this check would send ${method} ${path}`);
    const base = options.regional ? this.target.regionalBaseUrl : this.target.baseUrl;
    if (!base) throw new Error('no regional base address is configured (target.regionalBaseUrl)');
    const url = new URL(base.replace(/\/$/, '') + path);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);

    // the headers every request carries (--header) come first: a test's own headers say what it checks
    const headers: Record<string, string> = { accept: 'application/json', ...lowerKeys(this.target.network?.headers ?? {}), ...lowerKeys(options.headers ?? {}) };
    const identity = options.as ?? 'primary';
    const key = identity === 'none' ? undefined : this.target.keys[identity];
    if (identity !== 'none' && !key) throw new Error(`no ${identity} API key is configured`);
    const authorization = options.authorization === undefined ? (key ? `ApiKey ${key}` : undefined) : options.authorization;
    if (authorization !== null && authorization !== undefined) headers.authorization = authorization;

    let body: string | Buffer | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody;
      if (options.contentType) headers['content-type'] = options.contentType;
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }

    const result = await send({
      method,
      url: url.toString(),
      headers,
      ...(body !== undefined ? { body: options.chunked ? inPieces(Buffer.from(body)) : body } : {}),
      timeoutMs: options.timeoutMs ?? this.target.timeouts.requestMs,
      maxBodyBytes: MAX_BODY_BYTES,
      ...(this.target.network ? { network: this.target.network } : {}),
    });

    const exchange: Exchange = {
      method,
      // a key sent in the query (AUTH-01's probes) is redacted like one in a header
      url: this.redactor.text(url.toString()),
      requestHeaders: {
        ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, this.redactor.text(v)])),
        // the transport frames the body itself; recorded so the exchange (and its curl reproducer) says how
        ...(options.chunked && body !== undefined ? { 'transfer-encoding': 'chunked' } : {}),
      },
      durationMs: result.durationMs,
      authenticated: options.authorization === undefined && identity !== 'none',
    };
    if (body !== undefined) exchange.requestBody = truncate(this.redactor.body(body.toString()), 64_000);
    if (!result.ok) {
      exchange.error = result.error;
      exchange.errorKind = result.kind;
      this.record(exchange);
      throw new ExchangeFailed(exchange);
    }
    const { status, headers: responseHeaders, text } = result.response;
    exchange.status = status;
    exchange.responseHeaders = Object.fromEntries(Object.entries(responseHeaders).map(([k, v]) => [k, this.redactor.text(v)]));
    exchange.responseBody = truncate(this.redactor.body(text), RECORDED_BODY_CHARS);
    if (text.length > RECORDED_BODY_CHARS) exchange.truncated = true;
    // why: nothing stands between the suite and a reference it started itself; elsewhere a proxy's page and the target's own look alike
    const road = !this.target.embeddedReference && probesRoadLimits(exchange.url, body === undefined ? 0 : Buffer.byteLength(body)) ? roadAnswer(result.response) : undefined;
    if (road) exchange.fromTheRoad = this.redactor.text(road);
    this.record(exchange);
    // the target was not reached: what the test would judge is a proxy's answer, so the test says so and judges nothing
    if (exchange.fromTheRoad) throw new Skip('not-verified', `${method} ${url.pathname}: ${exchange.fromTheRoad}`);

    const json = parseJson(text);
    return { status, headers: responseHeaders, text, json, data: unwrap(json) as T, exchange };
  }

  private record(exchange: Exchange): void {
    this.exchanges.push(exchange);
    this.onExchange?.(exchange);
  }
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A single-key `{data: …}` wrapper is removed; anything else (including `{data, meta, errors}`) is kept whole. */
export function unwrap(json: unknown): unknown {
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const keys = Object.keys(json);
    if (keys.length === 1 && keys[0] === 'data') return (json as { data: unknown }).data;
  }
  return json;
}

const PIECE_BYTES = 16 * 1024;
/** The body as a stream of 16 KiB pieces, so that the transport frames it with chunked transfer coding. */
function inPieces(body: Buffer): Readable {
  const pieces: Buffer[] = [];
  for (let at = 0; at < body.length; at += PIECE_BYTES) pieces.push(body.subarray(at, at + PIECE_BYTES));
  return Readable.from(pieces, { objectMode: false });
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
