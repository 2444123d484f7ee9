// A target that hangs, resets, or answers garbage yields a clear report and a bounded run, never a hang or a crash.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort, startHostile, type HostileServer, type Hostility } from './hostile-servers.ts';
import { runCli } from './run-cli.ts';

const BOUNDS = { CONFORMANCE_REQUEST_TIMEOUT_MS: '500', CONFORMANCE_RUN_TIMEOUT_MS: '15000' };
let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function runAgainst(url: string, rules?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'cft-hostile-'));
  const result = await runCli(['run', '--target', url, '--api-key', 'hostile-test-key', '--report-dir', dir, ...(rules ? ['--rules', rules] : [])], BOUNDS);
  const reportFile = join(dir, 'conformance.json');
  const report = existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : undefined;
  return { ...result, report };
}

function expectNoCrash(result: { stdout: string; stderr: string }) {
  const output = result.stdout + result.stderr;
  expect(output, 'no stack trace reaches the user').not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
  expect(output, 'the API key never appears in output').not.toContain('hostile-test-key');
}

describe('an unreachable or non-answering target ends the run at once with exit 2 and a report', () => {
  it.each<[string, Hostility | 'closed', RegExp]>([
    ['not listening', 'closed', /connection refused/],
    ['never answers', 'silent', /no complete response within 500 ms \(timeouts\.requestMs\)/],
    ['resets mid-response', 'reset', /reset|not valid HTTP/],
    ['answers bytes that are not HTTP', 'garbage', /not valid HTTP|reset/],
    ['drips its body byte by byte', 'drip', /no complete response within 500 ms/],
  ])('%s', async (_label, kind, message) => {
    let url: string;
    if (kind === 'closed') url = await closedPort();
    else {
      server = await startHostile(kind);
      url = server.url;
    }
    const result = await runAgainst(url);
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stdout).toMatch(message);
    expect(result.stdout, 'the message names the exchange').toContain('GET http://127.0.0.1:');
    expect(result.report?.summary.verdict).toBe('non-conformant');
    expect(result.report?.errors.join('\n')).toMatch(message);
    expect(result.report?.requirements.every((r: { verdict: string }) => r.verdict === 'not-verified'), 'nothing is claimed to pass').toBe(true);
    expectNoCrash(result);
  });
});

describe('a target that answers, but wrongly, fails the run with exit 1 and one clear message per exchange', () => {
  it.each<[string, Hostility, RegExp]>([
    ['HTML for everything', 'html', /expected HTTP 401, got 200/],
    ['JSON content type over an HTML body', 'liar', /expected HTTP 401, got 200/],
    ['a 10 MB body', 'huge', /response body larger than \d+ bytes/],
  ])('%s', async (_label, kind, message) => {
    server = await startHostile(kind);
    const result = await runAgainst(server.url, 'AUTH-01,ENV-01,TRIG-01');
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const messages = result.report.requirements.flatMap((r: { tests: { message?: string }[] }) => r.tests.map((t) => t.message ?? ''));
    expect(messages.join('\n')).toMatch(message);
    expect(result.report.requirements.find((r: { id: string }) => r.id === 'AUTH-01').verdict).toBe('fail');
    expectNoCrash(result);
  });

  it('a target that stops answering after the pre-flight is bounded by timeouts.runMs', async () => {
    server = await startHostile('hang-after-preflight');
    const result = await runAgainst(server.url);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    // Liveness, not speed: the run ends near its configured bound instead of hanging (generous slack for CI).
    expect(result.elapsedMs).toBeLessThan(15_000 + 45_000);
    expect(result.report.summary.verdict).toBe('non-conformant');
    const messages = result.report.requirements.flatMap((r: { tests: { message?: string }[] }) => r.tests.map((t) => t.message ?? ''));
    expect(messages.join('\n')).toMatch(/no complete response within 500 ms \(timeouts\.requestMs\)/);
    expectNoCrash(result);
  }, 90_000);
});
