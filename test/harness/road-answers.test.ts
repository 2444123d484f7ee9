// An answer to a size probe that a proxy in front of the target gave (its own HTML error page, none of the target's
// headers) is the road's: the test that drew it ends not verified naming it, and no check over all traffic judges it.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { observe } from '../../fixtures/conformance.ts';
import { PASSIVE_CHECKS } from '../../harness/checks/passive-checks.ts';
import { Skip } from '../../harness/conformance/skip.ts';
import { ApiClient } from '../../harness/http/api-client.ts';
import { roadAnswer } from '../../harness/http/intermediary.ts';
import { toProfile } from '../../harness/runner/profile.ts';

const HAPROXY_400 = '<html><body><h1>400 Bad request</h1>\nYour browser sent an invalid request.\n</body></html>\n';
const NGINX_502 = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n';
const RATE = { 'ratelimit-limit': '100', 'ratelimit-remaining': '99', 'ratelimit-reset': '1', 'ratelimit-policy': '100;w=1' };

describe('which answers are the road\'s', () => {
  it('a proxy\'s HTML error page without the target\'s headers is, and the reason names it', () => {
    expect(roadAnswer({ status: 400, headers: { 'content-type': 'text/html' }, text: HAPROXY_400 })).toMatch(/^the answer \(400, text\/html: "<html><body><h1>400 Bad request<\/h1> Your browser.*came from something in front of the target/);
    expect(roadAnswer({ status: 502, headers: { 'content-type': 'text/html', server: 'nginx/1.22.1' }, text: NGINX_502 })).toMatch(/^the answer \(502, text\/html, from nginx\/1\.22\.1: /);
    expect(roadAnswer({ status: 413, headers: {}, text: '' })).toMatch(/^the answer \(413, \(no Content-Type\)\) came from something in front/);
  });

  it('an answer with the API\'s JSON error body, or with any header the target sends, or a success, is the target\'s', () => {
    const json = JSON.stringify({ statusCode: 413, timestamp: 't', path: '/v1/events/trigger', message: 'too large' });
    expect(roadAnswer({ status: 413, headers: { 'content-type': 'application/json' }, text: json })).toBeUndefined();
    // a target whose 414 is plain text is still the target when it carries its rate-limit headers (judged by ERR/RL checks)
    expect(roadAnswer({ status: 414, headers: { 'content-type': 'text/plain', ...RATE }, text: 'URI Too Long' })).toBeUndefined();
    expect(roadAnswer({ status: 400, headers: { 'idempotency-key': 'k' }, text: 'bad' })).toBeUndefined();
    expect(roadAnswer({ status: 201, headers: {}, text: '<html></html>' })).toBeUndefined();
  });
});

describe('a size probe answered by the road', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    // stands for a proxy with a 4 KB request line and no body limit of its own, in front of a target that answers JSON
    server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
      req.resume();
      if ((req.url ?? '').length > 4_096) return void res.writeHead(400, { 'content-type': 'text/html' }).end(HAPROXY_400);
      res.writeHead(414, { 'content-type': 'application/json', ...RATE }).end(JSON.stringify({ statusCode: 414, timestamp: 't', path: req.url, message: 'URI Too Long' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = () => new ApiClient({ ...toProfile({ ...DEFAULT_SETTINGS, target: { ...DEFAULT_SETTINGS.target, baseUrl: base, apiKey: 'k' } }, undefined) });

  it('ends the test not verified with the road named, and no check over all traffic judges the answer', async () => {
    const api = client();
    const error = await api.get('/v1/environments', { query: { filler: 'a'.repeat(20_000) } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Skip);
    expect((error as Skip).outcome).toBe('not-verified');
    expect((error as Skip).reason).toMatch(/^GET \/v1\/environments: the answer \(400, text\/html.*came from something in front of the target, not the target/);
    expect(api.exchanges[0]!.fromTheRoad).toBeDefined();
    const rl01 = observe(api.exchanges, { features: { ...DEFAULT_SETTINGS.features, rateLimiting: true } }, PASSIVE_CHECKS).find((o) => o.rule === 'RL-01');
    expect(rl01, 'RL-01 saw no exchange: the only one is the road\'s').toBeUndefined();
  });

  it('the same answer to an ordinary request is the target\'s and is judged', async () => {
    const api = client();
    const res = await api.get('/v1/environments', { query: { filler: 'a'.repeat(100) } });
    expect(res.status).toBe(414);
    expect(api.exchanges[0]!.fromTheRoad).toBeUndefined();
  });
});
