// `conformance reference` with known keys (flags or REFERENCE_* variables), random ones otherwise; bad keys exit 2.
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { runCli, spawnCli, startCli } from '../hostile/run-cli.ts';
import { SUITE_VERSION } from '../../report/suite-info.ts';

const DEV = 'cft-known-dev-key-0123456789';
const PROD = 'cft-known-prod-key-0123456789';
const RESTRICTED = 'cft-known-restricted-key-0123456789';

async function environments(baseUrl: string, key: string): Promise<{ status: number; own?: string }> {
  const res = await request(`${baseUrl}/v1/environments`, { headers: { authorization: `ApiKey ${key}` } });
  const body = (await res.body.json()) as { data?: { name: string; apiKeys?: { key: string }[] }[] };
  return { status: res.statusCode, own: body.data?.find((e) => e.apiKeys?.some((k) => k.key === key))?.name };
}

async function withReference<T>(args: string[], env: Record<string, string>, use: (announced: { baseUrl: string; regionalBaseUrl?: string; apiKeys: Record<string, string> }, line: string) => Promise<T>): Promise<T> {
  const cli = await startCli(['reference', ...args], env);
  try {
    return await use(JSON.parse(cli.output), cli.output);
  } finally {
    expect(await cli.stop(), 'SIGTERM ends the reference cleanly').toBe(0);
  }
}

describe('conformance reference keys', () => {
  it('takes the three keys from the flags of `conformance run`, and never echoes them', async () => {
    await withReference(['--api-key', DEV, '--secondary-api-key', PROD, '--restricted-api-key', RESTRICTED], {}, async ({ baseUrl, apiKeys }, line) => {
      for (const key of [DEV, PROD, RESTRICTED]) expect(line).not.toContain(key);
      expect(apiKeys).toEqual({ dev: '(given: --api-key)', prod: '(given: --secondary-api-key)', restricted: '(given: --restricted-api-key)' });
      expect(await environments(baseUrl, DEV)).toEqual({ status: 200, own: 'Development' });
      expect(await environments(baseUrl, PROD)).toEqual({ status: 200, own: 'Production' });
      expect((await environments(baseUrl, RESTRICTED)).status).toBe(200);
      expect((await environments(baseUrl, `${DEV}x`)).status, 'any other key is refused').toBe(401);
    });
  });

  it('takes them from REFERENCE_* variables, a flag winning over its variable', async () => {
    const env = { REFERENCE_API_KEY: 'cft-overridden-by-flag-key', REFERENCE_SECONDARY_API_KEY: PROD, REFERENCE_RESTRICTED_API_KEY: RESTRICTED };
    await withReference(['--api-key', DEV], env, async ({ baseUrl, apiKeys }) => {
      expect(apiKeys).toEqual({ dev: '(given: --api-key)', prod: '(given: REFERENCE_SECONDARY_API_KEY)', restricted: '(given: REFERENCE_RESTRICTED_API_KEY)' });
      expect(await environments(baseUrl, DEV)).toEqual({ status: 200, own: 'Development' });
      expect((await environments(baseUrl, env.REFERENCE_API_KEY)).status).toBe(401);
      expect(await environments(baseUrl, PROD)).toEqual({ status: 200, own: 'Production' });
    });
  });

  it('makes random keys when none are given, and announces them', async () => {
    await withReference([], {}, async ({ baseUrl, apiKeys }) => {
      expect(apiKeys.dev).toMatch(/^nk_dev_[0-9a-f]{32}$/);
      expect(await environments(baseUrl, apiKeys.dev!)).toEqual({ status: 200, own: 'Development' });
      expect(await environments(baseUrl, apiKeys.prod!)).toEqual({ status: 200, own: 'Production' });
    });
  });

  it.each([
    [['--api-key', ''], {}, '--api-key: a key needs at least 16 characters, got an empty one'],
    [['--secondary-api-key', 'fifteen-chars!!'], {}, '--secondary-api-key: a key needs at least 16 characters, got 15'],
    [[], { REFERENCE_RESTRICTED_API_KEY: '' }, 'REFERENCE_RESTRICTED_API_KEY: a key needs at least 16 characters, got an empty one'],
    [['--api-key', DEV], { REFERENCE_SECONDARY_API_KEY: DEV }, 'each environment needs its own key'],
  ])('refuses %j %j with exit 2', async (args, env, message) => {
    const result = await runCli(['reference', ...args], env as Record<string, string>);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout, 'nothing started').toBe('');
  });
});

describe('conformance reference announcement', () => {
  it('prints baseUrl, regionalBaseUrl and the keys, and VER-02 can then be run against it', async () => {
    const reference = spawnCli(['reference', '--port', '0']);
    try {
      const announced = JSON.parse(await reference.waitFor(/^\{/)) as { baseUrl: string; regionalBaseUrl: string; apiKeys: Record<string, string> };
      expect(announced.regionalBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(announced.regionalBaseUrl).not.toBe(announced.baseUrl);
      const dir = mkdtempSync(join(tmpdir(), 'cft-ver02-'));
      const { apiKeys } = announced;
      const run = await runCli(['run', '--rules', 'VER-02', '--target', announced.baseUrl, '--regional-target', announced.regionalBaseUrl, '--api-key', apiKeys.dev!, '--secondary-api-key', apiKeys.prod!, '--restricted-api-key', apiKeys.restricted!, '--report-dir', dir]);
      const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { requirements: { id: string; verdict: string }[] };
      expect(report.requirements.find((r) => r.id === 'VER-02')!.verdict, run.stdout).toBe('pass');
    } finally {
      reference.signal('SIGINT');
    }
    expect((await reference.done).code).toBe(0);
  });
});

describe('conformance reference names itself on every answer', () => {
  /** The raw answer to `bytes` sent on a plain socket: the status line and headers of what Node's parser refuses too. */
  const raw = (baseUrl: string, bytes: string) => new Promise<string>((resolve, reject) => {
    const url = new URL(baseUrl);
    const socket = connect(Number(url.port), url.hostname, () => socket.end(bytes));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });

  it('answers X-Conformance-Reference: <suite version> on a 200, a 401, a 404, a 405, a 414, a 422 and a request Node cannot parse, on both ports', async () => {
    await withReference([], {}, async ({ baseUrl, regionalBaseUrl, apiKeys }) => {
      const auth = { authorization: `ApiKey ${apiKeys.dev}` };
      const answers = await Promise.all([
        request(`${baseUrl}/v1/environments`, { headers: auth }),
        request(`${baseUrl}/v1/environments`),
        request(`${baseUrl}/v1/no-such-thing`, { headers: auth }),
        request(`${baseUrl}/v1/environments`, { method: 'DELETE', headers: auth }),
        request(`${baseUrl}/v1/subscribers?x=${'a'.repeat(5000)}`, { headers: auth }),
        request(`${baseUrl}/v1/events/trigger`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{}' }),
        request(`${regionalBaseUrl!}/v1/environments`, { headers: auth }),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 401, 404, 405, 414, 422, 200]);
      for (const a of answers) {
        await a.body.dump();
        expect(a.headers['x-conformance-reference']).toBe(SUITE_VERSION);
      }
      expect(await raw(baseUrl, 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n')).toMatch(new RegExp(`^HTTP/1\\.1 400 Bad Request\r\nConnection: close\r\nX-Conformance-Reference: ${SUITE_VERSION.replaceAll('.', '\\.')}\r\n\r\n$`));
    });
  });
});

describe('conformance reference on a port that cannot be had', () => {
  it('says the port is in use and which flag to change, with exit 2 and no "internal error"', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      const { code, stderr } = await runCli(['reference', '--port', String(port)]);
      expect(code).toBe(2);
      expect(stderr).toBe(`conformance: --port ${port}: 127.0.0.1:${port} is already in use by another process; give another --port, or --port 0 for a free one\n`);
    } finally {
      busy.close();
    }
  });
});
