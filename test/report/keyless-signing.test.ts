// `--sign keyless` up to the network boundary: the ambient identity is found (or its absence named before the run),
// and every unreachable or failing service — token endpoint, Fulcio, Rekor — ends in one clear sentence. Only
// 127.0.0.1 is ever contacted: stubs stand in for the GitHub token service and Fulcio; Rekor is a closed port.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';
import { buildStatement } from '../../certify/attestation.ts';
import { bundleFiles } from '../../certify/bundle.ts';
import { redactSettings } from '../../report/redacted-settings.ts';
import { signStatement, SigningError, type SigningMethod } from '../../certify/sign-attestation.ts';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { junitXml } from '../../report/junit.ts';
import { certifiableReport } from './sample-report.ts';

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const TOKEN = `${b64url({ alg: 'RS256' })}.${b64url({ sub: 'repo:acme/notifications:ref:refs/heads/main', iss: 'https://token.actions.githubusercontent.com', aud: 'sigstore' })}.c2lnbmF0dXJl`;
/** Any PEM body: the Fulcio stub's "certificate" only has to reach the Rekor step. */
const FAKE_CERT = `-----BEGIN CERTIFICATE-----\n${Buffer.from('fake certificate').toString('base64')}\n-----END CERTIFICATE-----\n`;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function stub(handler: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => handler(req, body, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port nothing listens on: a server bound, its port noted, and closed. */
async function closedPort(): Promise<string> {
  const url = await stub(() => undefined);
  const server = servers.pop()!;
  await new Promise((resolve) => server.close(resolve));
  return url;
}

function statement() {
  const report = certifiableReport();
  return buildStatement(bundleFiles({ report, junitXml: junitXml(report), settings: structuredClone(DEFAULT_SETTINGS) }));
}

async function signingFailure(method: SigningMethod): Promise<string> {
  const error = await signStatement(statement(), method).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(SigningError);
  const message = (error as Error).message;
  expect(message).not.toContain(TOKEN);
  expect(message).not.toContain(TOKEN.split('.')[1]);
  return message;
}

describe('--sign keyless', () => {
  it('without an OIDC identity, run stops before anything runs, naming what to set (exit 2)', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await main(['run', '--bundle', '--sign', 'keyless', '--report-dir', '/nonexistent/never-written'], {})).toBe(2);
      expect(out, 'the run never started: no target line, no pre-flight, no progress').not.toHaveBeenCalled();
      const text = err.mock.calls.map((c) => String(c[0])).join('');
      expect(text).toContain('--sign keyless: no OIDC identity in the environment');
      expect(text).toContain('permissions: id-token: write');
      expect(await main(['run', '--bundle', '--sign', 'sigstore'], {})).toBe(2);
      expect(err.mock.calls.map((c) => String(c[0])).join('')).toContain('--sign takes "keyless"');
    } finally {
      err.mockRestore();
      out.mockRestore();
    }
  });

  it('names Fulcio and its address when it is unreachable', async () => {
    const fulcioUrl = await closedPort();
    const message = await signingFailure({ kind: 'keyless', env: { SIGSTORE_ID_TOKEN: TOKEN }, fulcioUrl, rekorUrl: await closedPort() });
    expect(message).toMatch(new RegExp(`^--sign keyless: Fulcio at ${fulcioUrl} issued no signing certificate \\(.*ECONNREFUSED.*\\); the Sigstore services must be reachable`));
  });

  it('names Fulcio\'s answer when it refuses the token', async () => {
    const fulcioUrl = await stub((_req, _body, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 16, message: 'Error processing the identity token' }));
    });
    const message = await signingFailure({ kind: 'keyless', env: { SIGSTORE_ID_TOKEN: TOKEN }, fulcioUrl, rekorUrl: await closedPort() });
    expect(message).toContain(`Fulcio at ${fulcioUrl} issued no signing certificate (`);
    expect(message).toContain('Error processing the identity token');
  });

  it('gets the GitHub Actions token for the audience "sigstore", then names Rekor when it is unreachable', async () => {
    const seen: { url?: string; auth?: string; fulcioBody?: string } = {};
    const tokenUrl = await stub((req, _body, res) => {
      seen.url = req.url;
      seen.auth = req.headers.authorization;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ value: TOKEN }));
    });
    const fulcioUrl = await stub((_req, body, res) => {
      seen.fulcioBody = body;
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ signedCertificateEmbeddedSct: { chain: { certificates: [FAKE_CERT] } } }));
    });
    const rekorUrl = await closedPort();
    const env = { ACTIONS_ID_TOKEN_REQUEST_URL: `${tokenUrl}/token?api-version=2.0`, ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'runner-request-token' };
    const message = await signingFailure({ kind: 'keyless', env, fulcioUrl, rekorUrl });
    expect(seen.url).toBe('/token?api-version=2.0&audience=sigstore');
    expect(seen.auth).toBe('Bearer runner-request-token');
    expect(JSON.parse(seen.fulcioBody!).credentials.oidcIdentityToken).toBe(TOKEN);
    expect(message).toMatch(new RegExp(`^--sign keyless: Rekor at ${rekorUrl} recorded no transparency-log entry \\(.*ECONNREFUSED.*\\)`));
  });

  it('names the token service when it refuses', async () => {
    const tokenUrl = await stub((_req, _body, res) => {
      res.writeHead(403);
      res.end();
    });
    const env = { ACTIONS_ID_TOKEN_REQUEST_URL: `${tokenUrl}/token`, ACTIONS_ID_TOKEN_REQUEST_TOKEN: 't' };
    expect(await signingFailure({ kind: 'keyless', env, fulcioUrl: await closedPort(), rekorUrl: await closedPort() })).toBe(
      '--sign keyless: could not get the OIDC identity token (the GitHub Actions token service answered 403)',
    );
  });

  it('says a token that is not a JWT is not one, without printing it', async () => {
    const message = await signingFailure({ kind: 'keyless', env: { SIGSTORE_ID_TOKEN: 'not-a-jwt-secret' }, fulcioUrl: await closedPort(), rekorUrl: await closedPort() });
    expect(message).toBe('--sign keyless: the OIDC identity token is not a JWT');
  });

  it('`conformance bundle --sign keyless` with the services unreachable exits 2, says so, and writes no bundle', async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'keyless-bundle-'));
    const report = certifiableReport();
    writeFileSync(join(reportDir, 'conformance.json'), JSON.stringify(report));
    writeFileSync(join(reportDir, 'junit.xml'), junitXml(report));
    writeFileSync(join(reportDir, 'configuration.json'), JSON.stringify(redactSettings(structuredClone(DEFAULT_SETTINGS))));
    const fulcioUrl = await closedPort();
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const code = await main(['bundle', '--report-dir', reportDir, '--sign', 'keyless', '--fulcio-url', fulcioUrl, '--rekor-url', await closedPort()], { SIGSTORE_ID_TOKEN: TOKEN });
      expect(code).toBe(2);
      const text = err.mock.calls.map((c) => String(c[0])).join('');
      expect(text).toContain(`conformance: --sign keyless: Fulcio at ${fulcioUrl} issued no signing certificate`);
      expect(text).toContain('; no bundle written');
      expect(text).not.toContain(TOKEN);
    } finally {
      err.mockRestore();
    }
    expect(existsSync(join(reportDir, 'conformance-bundle.tar.gz'))).toBe(false);
  });
});
