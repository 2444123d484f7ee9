// A TCP proxy on 127.0.0.1 that behaves like a bad network in front of a good target: it delays each piece it carries
// by 0–jitter ms and resets a share of its connections, before a request reaches the target or after the target answered.
// A rule can make it reset one kind of request every time (a target that breaks on that request, not a network).
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface FlakyProxyOptions {
  /** Where the good target listens. */
  upstream: { host: string; port: number };
  /** Chance (0–1) that a connection is doomed: it is reset at one of its first few requests, before or after the target answered. */
  resetRate: number;
  /** Each piece carried waits a random 0–jitterMs (order kept). */
  jitterMs: number;
  /** Each piece of an answer waits this long more: a slow target or a long way to it. */
  latencyMs?: number;
  /** Seeds the choices, so that a run can be repeated. */
  seed: number;
  /** Resets every request whose request line matches (e.g. /^DELETE \/v2\/topics\//): the same fault on every try. */
  alwaysReset?: RegExp;
  /** Resets every `every`-th request whose line matches: one of each concurrent batch, never the same request twice. */
  resetOneIn?: { request: RegExp; every: number };
}

export interface FlakyProxy {
  url: string;
  counts: { connections: number; requests: number; resetBefore: number; resetAfter: number; resetAlways: number };
  close(): Promise<void>;
}

/** A doomed connection dies at one of its first this-many requests (a keep-alive connection carries many). */
const DOOM_WITHIN_REQUESTS = 4;

export async function startFlakyProxy(options: FlakyProxyOptions): Promise<FlakyProxy> {
  const random = mulberry32(options.seed);
  const counts = { connections: 0, requests: 0, resetBefore: 0, resetAfter: 0, resetAlways: 0 };
  let matching = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    counts.connections += 1;
    const upstream = connect(options.upstream);
    sockets.add(client).add(upstream);
    const doomed = random() < options.resetRate;
    const doomAt = 1 + Math.floor(random() * DOOM_WITHIN_REQUESTS);
    const doomAfterAnswer = random() < 0.5;
    let requests = 0;
    let resetOnAnswer = false;
    let toClient = Promise.resolve();
    let toUpstream = Promise.resolve();
    const reset = () => {
      client.resetAndDestroy();
      upstream.destroy();
    };
    client.on('data', (chunk: Buffer) => {
      const line = requestLine(chunk);
      if (line !== undefined) {
        counts.requests += 1;
        requests += 1;
        if (options.resetOneIn?.request.test(line) && ++matching % options.resetOneIn.every === 0) {
          counts.resetBefore += 1;
          return reset();
        }
        if (options.alwaysReset?.test(line)) {
          counts.resetAlways += 1;
          return reset();
        }
        if (doomed && requests === doomAt && !doomAfterAnswer) {
          counts.resetBefore += 1;
          return reset();
        }
        resetOnAnswer = doomed && requests === doomAt;
      }
      const wait = random() * options.jitterMs;
      toUpstream = toUpstream.then(() => delay(wait)).then(() => void (upstream.destroyed || upstream.write(chunk)));
    });
    upstream.on('data', (chunk: Buffer) => {
      if (resetOnAnswer) {
        // the target has processed the request: its answer is lost on the way back
        counts.resetAfter += 1;
        resetOnAnswer = false;
        return reset();
      }
      const wait = random() * options.jitterMs + (options.latencyMs ?? 0);
      toClient = toClient.then(() => delay(wait)).then(() => void (client.destroyed || client.write(chunk)));
    });
    // An orderly close waits for what is still queued, so a delayed answer is not cut off by the proxy itself.
    upstream.on('end', () => void toClient.then(() => client.end()));
    client.on('end', () => void toUpstream.then(() => upstream.end()));
    const end = () => {
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', () => (end(), upstream.destroy())).on('error', () => upstream.destroy());
    upstream.on('close', end).on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The request line when the chunk starts a request (`POST /v1/events/trigger`), else undefined (a body piece). */
function requestLine(chunk: Buffer): string | undefined {
  const head = chunk.subarray(0, 256).toString('latin1');
  const match = /^([A-Z]+) (\S+) HTTP\/1\.[01]\r\n/.exec(head);
  return match ? `${match[1]} ${match[2]}` : undefined;
}

function delay(ms: number): Promise<void> {
  return ms < 1 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}

/** A small seeded PRNG (public domain): the same seed gives the same faults on the same traffic. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
