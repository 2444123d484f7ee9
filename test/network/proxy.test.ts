// Requests reach a target the way a corporate network demands: through the proxy of HTTP_PROXY/HTTPS_PROXY (unless
// NO_PROXY names the host), trusting a private CA, presenting a client certificate, carrying the extra headers.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer as createHttp, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tinyProxy } from './tiny-proxy.ts';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../config/resolve-settings.ts';
import { ApiClient, ExchangeFailed } from '../../harness/http/api-client.ts';
import { closeTransport } from '../../harness/http/transport.ts';
import { toProfile } from '../../harness/runner/profile.ts';
import { toCurl } from '../../harness/http/exchange.ts';

const TLS = join(import.meta.dirname, '..', 'tls');
const pem = (name: string) => readFileSync(join(TLS, name), 'utf8');
const KEY = 'sk_network_test_key_0123456789';

function answering(req: IncomingMessage, res: ServerResponse, log: Record<string, string | string[] | undefined>[]) {
  log.push(req.headers);
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { ok: true } }));
}

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function clientFor(baseUrl: string, network: Record<string, unknown>): ApiClient {
  const settings = resolveSettings({ env: {}, flags: { 'target.baseUrl': baseUrl, 'target.apiKey': KEY, ...Object.fromEntries(Object.entries(network).map(([k, v]) => [`network.${k}`, v])) } });
  return new ApiClient(toProfile(settings, undefined));
}

const proxy = tinyProxy();
const targetHeaders: Record<string, string | string[] | undefined>[] = [];
const plain = createHttp((req, res) => answering(req, res, targetHeaders));
const secure = createHttps({ key: pem('server.key'), cert: pem('server.pem') }, (req, res) => answering(req, res, targetHeaders));
const mutual = createHttps({ key: pem('server.key'), cert: pem('server.pem'), ca: pem('ca.pem'), requestCert: true, rejectUnauthorized: true }, (req, res) => answering(req, res, targetHeaders));
let proxyAt = '';
let plainAt = '';
let secureAt = '';
let mutualAt = '';

beforeAll(async () => {
  [proxyAt, plainAt, secureAt, mutualAt] = await Promise.all([listen(proxy.server), listen(plain), listen(secure as unknown as Server), listen(mutual as unknown as Server)]);
});
afterAll(async () => {
  await closeTransport();
  for (const s of [proxy.server, plain, secure, mutual]) s.closeAllConnections?.();
  await Promise.all([proxy.server, plain, secure, mutual].map((s) => new Promise((r) => s.close(r))));
});

describe('proxies', () => {
  it('an http target is reached through HTTP_PROXY, as an absolute-form request (the way curl sends it)', async () => {
    const before = proxy.seen.length;
    const api = clientFor(`http://${plainAt}`, { httpProxy: `http://${proxyAt}` });
    expect((await api.get('/v1/environments')).status).toBe(200);
    expect(proxy.seen.slice(before)).toEqual([`GET http://${plainAt}/v1/environments`]);
  });

  it('an https target is reached through a CONNECT tunnel of HTTPS_PROXY, trusting the CA of --ca-file', async () => {
    const before = proxy.seen.length;
    const api = clientFor(`https://${secureAt}`, { httpsProxy: `http://${proxyAt}`, caFile: join(TLS, 'ca.pem') });
    expect((await api.get('/v1/environments')).status).toBe(200);
    expect(proxy.seen.slice(before)).toEqual([`CONNECT ${secureAt}`]);
  });

  it('NO_PROXY naming the host (or host:port, or a suffix) sends the request directly', async () => {
    for (const noProxy of ['127.0.0.1', `127.0.0.1:${plainAt.split(':')[1]}`, 'example.org, .0.0.1', '*']) {
      const before = proxy.seen.length;
      const api = clientFor(`http://${plainAt}`, { httpProxy: `http://${proxyAt}`, noProxy });
      expect((await api.get('/v1/environments')).status, noProxy).toBe(200);
      expect(proxy.seen.length, noProxy).toBe(before);
    }
  });

  it('the proxy variables of the environment are settings: lower case first, an address without scheme is http', () => {
    const env = { CONFORMANCE_TARGET: 'http://t.example', CONFORMANCE_API_KEY: KEY, HTTP_PROXY: 'http://upper:1', http_proxy: 'lower:3128', HTTPS_PROXY: 'http://s:2', NO_PROXY: 'a,b' };
    expect(resolveSettings({ env }).network).toEqual({ httpProxy: 'http://lower:3128', httpsProxy: 'http://s:2', noProxy: 'a,b' });
  });

  it('a proxy that does not answer is named, not mistaken for the target', async () => {
    const closed = createHttp();
    const at = await listen(closed);
    await new Promise((r) => closed.close(r));
    const api = clientFor(`http://${plainAt}`, { httpProxy: `http://user:secret@${at}` });
    const error = await api.get('/v1/environments').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeFailed);
    expect((error as ExchangeFailed).exchange.error).toBe(`cannot reach the proxy http://[credentials]@${at} (ECONNREFUSED; set by HTTP_PROXY/HTTPS_PROXY): check its address, or list the target's host in NO_PROXY if it is reached directly`);
  });
});

describe('TLS', () => {
  it('a certificate of a private CA fails with a message naming --ca-file and NODE_EXTRA_CA_CERTS', async () => {
    const error = await clientFor(`https://${secureAt}`, {}).get('/v1/environments').catch((e: unknown) => e);
    expect((error as ExchangeFailed).exchange.errorKind).toBe('tls');
    expect((error as ExchangeFailed).exchange.error).toMatch(/trusted with --ca-file FILE \(or NODE_EXTRA_CA_CERTS=FILE\)$/);
  });

  it('a target that asks for a client certificate gets the one of --client-cert/--client-key', async () => {
    const api = clientFor(`https://${mutualAt}`, { caFile: join(TLS, 'ca.pem'), clientCert: join(TLS, 'client.pem'), clientKey: join(TLS, 'client.key') });
    expect((await api.get('/v1/environments')).status).toBe(200);
    const without = await clientFor(`https://${mutualAt}`, { caFile: join(TLS, 'ca.pem') }).get('/v1/environments').catch((e: unknown) => e);
    // the target does ask: without the certificate it closes the connection (TLS 1.3 says so after the handshake)
    expect(['reset', 'tls']).toContain((without as ExchangeFailed).exchange.errorKind);
  });

  it('settings that cannot work are usage errors naming the setting', () => {
    const base = { 'target.baseUrl': 'https://t.example', 'target.apiKey': KEY };
    expect(() => resolveSettings({ flags: { ...base, 'network.caFile': '/nonexistent/ca.pem' } })).toThrow('network.caFile: cannot read /nonexistent/ca.pem (ENOENT); given by --ca-file');
    expect(() => resolveSettings({ flags: { ...base, 'network.caFile': join(TLS, 'gen.sh') } })).toThrow('is not a PEM file');
    expect(() => resolveSettings({ flags: { ...base, 'network.clientCert': join(TLS, 'client.pem') } })).toThrow('network.clientKey: a client certificate needs its key');
    expect(() => resolveSettings({ flags: { ...base, 'network.headers': { Authorization: 'x' } } })).toThrow('Authorization is set by the harness itself');
    expect(() => resolveSettings({ flags: { ...base, 'network.headers': { 'bad name': 'x' } } })).toThrow('"bad name" is not a header name');
  });
});

describe('extra headers', () => {
  it('every request carries them; every record and reproducer shows the variable, never the value', async () => {
    const token = 'waf-token-9f8e7d6c5b4a';
    const api = clientFor(`http://${plainAt}`, { headers: { 'X-Waf-Token': token, 'X-Tenant': 'acme-tenant' } });
    const before = targetHeaders.length;
    const res = await api.post('/v1/events/trigger', { name: 'w', to: 's', payload: { echo: token } });
    expect(targetHeaders.slice(before)[0]).toMatchObject({ 'x-waf-token': token, 'x-tenant': 'acme-tenant' });
    const recorded = JSON.stringify(res.exchange);
    expect(recorded).not.toContain(token);
    expect(recorded).not.toContain('acme-tenant');
    expect(res.exchange.requestHeaders['x-waf-token']).toBe('${CONFORMANCE_HEADER_X_WAF_TOKEN}');
    const curl = toCurl(res.exchange);
    expect(curl).toContain("x-waf-token: ${CONFORMANCE_HEADER_X_WAF_TOKEN}");
    expect(curl).not.toContain(token);
  });

  it('a test\'s own header of the same name wins (a check of Idempotency-Key keeps its value)', async () => {
    const api = clientFor(`http://${plainAt}`, { headers: { 'Idempotency-Key': 'from-the-flag-value' } });
    const before = targetHeaders.length;
    await api.post('/v1/events/trigger', {}, { headers: { 'Idempotency-Key': 'the-test-s-own' } });
    expect(targetHeaders.slice(before)[0]!['idempotency-key']).toBe('the-test-s-own');
  });
});

