// A set-up mistake is found before any test and named by its setting: it never reads as a broken target.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { preflight } from '../../harness/runner/preflight.ts';
import type { TargetProfile } from '../../harness/target-profile.ts';
import { SUITE_VERSION } from '../../report/suite-info.ts';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { runCli } from '../hostile/run-cli.ts';

function profileFor(baseUrl: string, keys: TargetProfile['keys']): TargetProfile {
  return {
    baseUrl,
    keys,
    features: DEFAULT_SETTINGS.features,
    timeouts: { ...DEFAULT_SETTINGS.timeouts, requestMs: 3_000 },
    limits: DEFAULT_SETTINGS.limits,
    runPrefix: 'cft-test00',
    rules: [],
    embeddedReference: false,
    readOnly: false,
    noDrain: false,
    longChecks: false,
    transportRetries: 2,
    skips: {},
  };
}

async function ownReference({ onTestFinished }: TestContext): Promise<RunningReference> {
  const reference = await startReference({});
  onTestFinished(() => reference.close());
  return reference;
}

/** A target of the test's own making: `answer` decides each response. */
async function fakeTarget(answer: (req: IncomingMessage, res: ServerResponse) => void, { onTestFinished }: TestContext): Promise<string> {
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe.concurrent('pre-flight', () => {
  it('names the key setting of a refused primary, secondary or restricted key', async (context) => {
    const ref = await ownReference(context);
    const { dev, prod, restricted } = ref.apiKeys;
    const wrongPrimary = await preflight(profileFor(ref.baseUrl, { primary: 'nk_dev_wrong' }), 2);
    expect(wrongPrimary).toEqual({ ok: false, reason: expect.stringMatching(/did not accept the primary API key \(--api-key \/ CONFORMANCE_API_KEY\): GET http:\/\/127\.0\.0\.1:\d+\/v1\/environments answered 401/) });
    const wrongSecondary = await preflight(profileFor(ref.baseUrl, { primary: dev, secondary: 'nk_prod_wrong', restricted }), 2);
    expect(wrongSecondary).toEqual({ ok: false, reason: expect.stringContaining('the secondary API key (--secondary-api-key / CONFORMANCE_SECONDARY_API_KEY)') });
    const wrongRestricted = await preflight(profileFor(ref.baseUrl, { primary: dev, secondary: prod, restricted: 'nk_restricted_wrong' }), 2);
    expect(wrongRestricted).toEqual({ ok: false, reason: expect.stringContaining('the restricted API key (--restricted-api-key / CONFORMANCE_RESTRICTED_API_KEY)') });
    const right = await preflight(profileFor(ref.baseUrl, { primary: dev, secondary: prod, restricted }), 2);
    // the reference names itself on every answer: a run against it is told so, and the report records it
    expect(right).toEqual({
      ok: true,
      identifiesAsReference: SUITE_VERSION,
      lines: [expect.stringMatching(/^Pre-flight: organization \w+, environment Development$/), `Pre-flight: the target identifies itself as the embedded reference (X-Conformance-Reference: ${SUITE_VERSION}): the run cannot certify a candidate`],
    });
  });

  it('names both settings when one key is given twice, before sending anything', async () => {
    const outcome = await preflight(profileFor('http://127.0.0.1:1', { primary: 'nk_same', secondary: 'nk_same' }), 0);
    expect(outcome).toEqual({ ok: false, reason: expect.stringMatching(/same key is given as the primary key \(--api-key.*\) and as the secondary key \(--secondary-api-key/) });
  });

  it('names both settings when the listing shows the two keys in one environment', async (context) => {
    const listing = JSON.stringify({ data: [{ _id: 'e1', name: 'Development', _organizationId: 'o1', apiKeys: [{ key: 'nk_a' }, { key: 'nk_b' }] }, { _id: 'e2', name: 'Production', _organizationId: 'o1' }] });
    const url = await fakeTarget((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(listing), context);
    const outcome = await preflight(profileFor(url, { primary: 'nk_a', secondary: 'nk_b' }), 0);
    expect(outcome).toEqual({ ok: false, reason: expect.stringMatching(/primary key \(--api-key.*\) and the secondary key \(--secondary-api-key.*\) belong to the same environment \(Development\)/) });
  });

  it('decides nothing about environments from keys it cannot find verbatim in the listing', async (context) => {
    const masked = JSON.stringify([{ _id: 'e1', name: 'Development', _organizationId: 'o1', apiKeys: [{ key: 'nk_*****' }] }, { _id: 'e2', name: 'Production', _organizationId: 'o1', apiKeys: [{ key: 'nk_*****' }] }]);
    const url = await fakeTarget((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(masked), context);
    expect((await preflight(profileFor(url, { primary: 'nk_a', secondary: 'nk_b' }), 0)).ok).toBe(true);
  });

  it('names the base URL of a 404 and where the API answers instead', async (context) => {
    const ref = await ownReference(context);
    const outcome = await preflight(profileFor(`${ref.baseUrl}/api/v1`, { primary: ref.apiKeys.dev }), 0);
    expect(outcome).toEqual({ ok: false, reason: expect.stringContaining(`the base URL (--target / CONFORMANCE_TARGET) ${ref.baseUrl}/api/v1 does not serve the Notification API`) });
    expect(outcome).toEqual({ ok: false, reason: expect.stringContaining(`It answers at ${ref.baseUrl}: use --target ${ref.baseUrl}.`) });
  });

  it('says the target looks like plain HTTP when the TLS handshake meets it', async (context) => {
    const ref = await ownReference(context);
    const outcome = await preflight(profileFor(ref.baseUrl.replace('http:', 'https:'), { primary: ref.apiKeys.dev }), 0);
    expect(outcome).toEqual({ ok: false, reason: expect.stringMatching(/TLS handshake failed: the target looks like plain HTTP, not HTTPS .*try http:\/\//) });
  });

  it('tries a reset pre-flight again before calling the target unreachable', async (context) => {
    let calls = 0;
    const listing = JSON.stringify([{ _id: 'e1', name: 'Development', _organizationId: 'o1' }]);
    const url = await fakeTarget((req, res) => (++calls === 1 ? req.socket.resetAndDestroy() : res.writeHead(200, { 'content-type': 'application/json' }).end(listing)), context);
    expect((await preflight(profileFor(url, { primary: 'nk_a' }), 2)).ok).toBe(true);
    expect(calls).toBe(2);
  });
});

describe('a run whose key is refused', () => {
  it('never prints the key, even when the target echoes it in its refusal', async (context) => {
    const url = await fakeTarget((req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 401, message: `unknown key ${req.headers.authorization}` })), context);
    const dir = mkdtempSync(join(tmpdir(), 'cft-preflight-'));
    const result = await runCli(['run', '--target', url, '--api-key', 'nk_echoed_secret_1234', '--report-dir', dir]);
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stdout).toMatch(/^COULD NOT RUN: the target did not accept the primary API key/m);
    expect(result.stdout + result.stderr + readFileSync(join(dir, 'conformance.json'), 'utf8')).not.toContain('nk_echoed_secret_1234');
  });

  it('writes a report with verdict error, runs no test, leaves nothing and exits 2', async (context) => {
    const ref = await ownReference(context);
    const before = ref.inventory();
    const dir = mkdtempSync(join(tmpdir(), 'cft-preflight-'));
    const result = await runCli(['run', '--target', ref.baseUrl, '--api-key', 'nk_dev_mistyped_key', '--secondary-api-key', ref.apiKeys.prod, '--report-dir', dir]);
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stdout).toMatch(/^COULD NOT RUN: the target did not accept the primary API key \(--api-key \/ CONFORMANCE_API_KEY\)/m);
    expect(result.stdout).not.toMatch(/NON-CONFORMANT|LEAK:|✗/);
    expect(result.stdout + result.stderr, 'no key is printed').not.toMatch(/nk_dev_mistyped_key|nk_prod_/);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
    expect(report.summary).toMatchObject({ verdict: 'error', error: expect.stringContaining('--api-key'), tests: { total: 0 } });
    expect(report.leaks).toEqual([]);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<testcase classname="summary" name="summary verdict: error"[^>]*>\s*(<properties>[\s\S]*?<\/properties>\s*)?<error message="error: the run could not run/);
    expect(readFileSync(join(dir, 'conformance.html'), 'utf8')).toMatch(/<div class="verdict">⚠ COULD NOT RUN<\/div>\s*<div class="why">the run could not run, no rule was judged: the target did not accept the primary API key/);
    expect(ref.inventory()).toEqual(before);
  });
});
