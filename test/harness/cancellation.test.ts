// A cancelled test body sends nothing more, wherever it is waiting; the code outside it (cleanup) still sends.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { Cancelled, cancellable } from '../../harness/http/cancellation.ts';
import { ApiClient } from '../../harness/http/api-client.ts';
import { toProfile } from '../../harness/runner/profile.ts';

describe('a cancelled test body', () => {
  let server: Server;
  let hits = 0;
  let api: ApiClient;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits += 1;
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    api = new ApiClient(toProfile({ ...DEFAULT_SETTINGS, target: { ...DEFAULT_SETTINGS.target, baseUrl, apiKey: 'k' } }, undefined));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends no request after the cancel, from its loop or from a timer it set, and the code outside it still does', async () => {
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const body = cancellable(async () => {
      setTimeout(() => void api.get('/v1/environments').catch(() => undefined), 150);
      for (;;) {
        await api.get('/v1/environments');
        await pause(10);
      }
    });
    const ended = body.done.catch((error: unknown) => error);
    await pause(100);
    body.cancel('the test did not finish within timeouts.testMs');
    expect(await ended).toBeInstanceOf(Cancelled);
    const atCancel = hits;
    await pause(200);
    expect(hits - atCancel, 'at most the request in flight at the cancel lands after it').toBeLessThanOrEqual(1);
    const before = hits;
    await api.get('/v1/environments');
    expect(hits, 'cleanup, outside the body, still sends').toBe(before + 1);
  });
});
