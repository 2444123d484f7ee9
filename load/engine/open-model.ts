// The open-model core: every request leaves at its scheduled time whatever earlier responses did; an in-flight
// cap drops (and counts) instead of delaying, so latency from the scheduled time is free of coordinated omission.
import type { Dispatcher } from 'undici';
import { engineDispatcher } from '../../config/network-dispatcher.ts';

export interface OpenStream {
  startMs: number;
  /** Requests leave at startMs + i·intervalMs, i < count. */
  intervalMs: number;
  count: number;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export type Headers = Record<string, string | string[] | undefined>;

export interface OpenModelEvents {
  /** Called for every scheduled request, before it is sent or dropped. */
  onScheduled?(stream: number, scheduledMs: number): void;
  onDropped?(stream: number, scheduledMs: number): void;
  onSent?(stream: number, scheduledMs: number, sentMs: number): void;
  /** `body` is collected only when wantBody(status) says so (2xx bodies are skipped: less work per request). */
  onResponse?(stream: number, scheduledMs: number, sentMs: number, doneMs: number, status: number, headers: Headers, body: string | undefined): void;
  onError?(stream: number, scheduledMs: number, sentMs: number, doneMs: number, error: Error): void;
  wantBody?(status: number): boolean;
}

export interface OpenModelOptions {
  origin: string;
  streams: OpenStream[];
  connections?: number;
  maxInFlight?: number;
  /** Decode response headers for onResponse (default true); the benchmark turns it off. */
  decodeHeaders?: boolean;
  timeoutMs?: number;
  events?: OpenModelEvents;
  /** Aborted (a Ctrl-C): nothing more is scheduled; requests in flight get a bounded time to answer. */
  signal?: AbortSignal;
}

export interface OpenModelResult {
  startedAt: Date;
  /** performance.now() of the schedule's time zero. */
  t0: number;
  durationMs: number;
  scheduled: number;
  dropped: number;
  completed: number;
  errors: number;
  /** Wall time of the first and last actual send, relative to t0 (arrival-rate accuracy). */
  firstSentMs: number;
  lastSentMs: number;
  maxInFlightSeen: number;
  /** When the schedule was cut short by the signal (ms from t0); absent when it ran to its end. */
  stoppedAtMs?: number;
}

const MAX_BODY_BYTES = 64 * 1024;
/** Once stopped, requests in flight get this long to answer (or the request timeout, if shorter). */
const STOP_IN_FLIGHT_MS = 3_000;

export async function runOpenModel(o: OpenModelOptions): Promise<OpenModelResult> {
  const timeoutMs = o.timeoutMs ?? 10_000;
  const maxInFlight = o.maxInFlight ?? 4096;
  const ev = o.events ?? {};
  const wantHeaders = ev.onResponse !== undefined && o.decodeHeaders !== false;
  const pool = engineDispatcher(o.origin, {
    connections: o.connections ?? 256,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const streams = o.streams;
  const next = streams.map(() => 0);
  const total = streams.reduce((n, s) => n + s.count, 0);
  const r: OpenModelResult = { startedAt: new Date(), t0: 0, durationMs: 0, scheduled: 0, dropped: 0, completed: 0, errors: 0, firstSentMs: -1, lastSentMs: -1, maxInFlightSeen: 0 };
  let inFlight = 0;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const t0 = performance.now();
  r.t0 = t0;

  const settle = () => {
    if ((r.scheduled === total || r.stoppedAtMs !== undefined) && inFlight === 0) finish();
  };

  const fire = (k: number, scheduledMs: number) => {
    const s = streams[k]!;
    r.scheduled += 1;
    ev.onScheduled?.(k, scheduledMs);
    if (inFlight >= maxInFlight) {
      r.dropped += 1;
      ev.onDropped?.(k, scheduledMs);
      return;
    }
    inFlight += 1;
    if (inFlight > r.maxInFlightSeen) r.maxInFlightSeen = inFlight;
    const sentMs = performance.now() - t0;
    if (r.firstSentMs < 0) r.firstSentMs = sentMs;
    r.lastSentMs = sentMs;
    ev.onSent?.(k, scheduledMs, sentMs);
    let status = 0;
    let headers: Headers = {};
    let chunks: Buffer[] | undefined;
    let size = 0;
    const end = (error?: Error) => {
      inFlight -= 1;
      const doneMs = performance.now() - t0;
      if (error) {
        r.errors += 1;
        ev.onError?.(k, scheduledMs, sentMs, doneMs, error);
      } else {
        r.completed += 1;
        ev.onResponse?.(k, scheduledMs, sentMs, doneMs, status, headers, chunks ? Buffer.concat(chunks).toString('utf8') : undefined);
      }
      settle();
    };
    // why: undici 7's Pool still takes the legacy handler shape; raw headers are only decoded when someone reads them
    const handler = {
      onConnect() {},
      onHeaders(statusCode: number, raw: Buffer[] | null) {
        status = statusCode;
        if (wantHeaders && raw) headers = decodeHeaders(raw);
        if (ev.wantBody?.(statusCode)) chunks = [];
        return true;
      },
      onData(chunk: Buffer) {
        if (chunks && size < MAX_BODY_BYTES) {
          size += chunk.length;
          chunks.push(chunk);
        }
        return true;
      },
      onComplete() {
        end();
      },
      onError(error: Error) {
        end(error);
      },
    } as unknown as Dispatcher.DispatchHandler;
    pool.dispatch({ origin: o.origin, path: s.path, method: s.method, headers: s.headers, body: s.body ?? null }, handler);
  };

  const tick = () => {
    if (r.stoppedAtMs !== undefined) return settle();
    const now = performance.now() - t0;
    let soonest = Infinity;
    for (let k = 0; k < streams.length; k++) {
      const s = streams[k]!;
      while (next[k]! < s.count) {
        const at = s.startMs + next[k]! * s.intervalMs;
        if (at > now) {
          if (at < soonest) soonest = at;
          break;
        }
        next[k]! += 1;
        fire(k, at);
      }
    }
    if (soonest === Infinity) {
      settle();
      return;
    }
    const wait = soonest - (performance.now() - t0);
    // why: timers are ~1 ms coarse; below that, setImmediate keeps sends on schedule without blocking I/O
    if (wait >= 1) setTimeout(tick, Math.floor(wait));
    else setImmediate(tick);
  };
  tick();
  settle();

  const lastScheduled = Math.max(0, ...streams.map((s) => s.startMs + s.count * s.intervalMs));
  let timer: NodeJS.Timeout | undefined;
  // why: bounded in time whatever the target does: schedule + one request timeout + slack
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, lastScheduled + timeoutMs + 2_000)));
  let stopTimer: NodeJS.Timeout | undefined;
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      r.stoppedAtMs ??= performance.now() - t0;
      settle();
      stopTimer = setTimeout(resolve, Math.min(timeoutMs, STOP_IN_FLIGHT_MS));
    };
    if (o.signal?.aborted) stop();
    else o.signal?.addEventListener('abort', stop, { once: true });
  });
  await Promise.race([done, deadline, stopped]);
  clearTimeout(timer);
  clearTimeout(stopTimer);
  r.durationMs = performance.now() - t0;
  await pool.destroy().catch(() => undefined);
  return r;
}

function decodeHeaders(raw: Buffer[]): Headers {
  const out: Headers = {};
  for (let i = 0; i + 1 < raw.length; i += 2) out[raw[i]!.toString('latin1').toLowerCase()] = raw[i + 1]!.toString('latin1');
  return out;
}

/** Case-insensitive header read (undici gives lower-case names; arrays are joined). */
export function headerOf(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}
