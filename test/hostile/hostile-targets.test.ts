// A target that hangs, resets, or answers garbage yields a clear report and a bounded run, never a hang or a crash.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it, type ExpectStatic, type TestContext } from 'vitest';
import { closedPort, startHostile, type Hostility } from './hostile-servers.ts';
import { runCli } from './run-cli.ts';

// why: each test is a CLI run that mostly waits on its target, so they run concurrently; the request bound leaves
// a busy machine time to answer, so that a slow answer is not mistaken for no answer
const REQUEST_BOUND_MS = 2_000;
/** The run bound under test; the other runs end by themselves and get a bound they never reach. */
const RUN_BOUND_MS = 15_000;
const NO_RESPONSE = new RegExp(`no response within ${REQUEST_BOUND_MS} ms \\(timeouts\\.requestMs\\)`);
const BODY_CUT = new RegExp(`the rest of the body did not within ${REQUEST_BOUND_MS} ms \\(timeouts\\.requestMs\\)`);

/** A hostile server that closes when the test is over. */
async function hostile(kind: Hostility, { onTestFinished }: TestContext): Promise<string> {
  const server = await startHostile(kind);
  onTestFinished(() => server.close());
  return server.url;
}

async function runAgainst(url: string, rules?: string, runBoundMs = 120_000, requestBoundMs = REQUEST_BOUND_MS) {
  const dir = mkdtempSync(join(tmpdir(), 'cft-hostile-'));
  const bounds = { CONFORMANCE_REQUEST_TIMEOUT_MS: String(requestBoundMs), CONFORMANCE_RUN_TIMEOUT_MS: String(runBoundMs) };
  const result = await runCli(['run', '--target', url, '--api-key', 'hostile-test-key', '--report-dir', dir, ...(rules ? ['--rules', rules] : [])], bounds, undefined, { timed: runBoundMs === RUN_BOUND_MS });
  const reportFile = join(dir, 'conformance.json');
  const report = existsSync(reportFile) ? JSON.parse(readFileSync(reportFile, 'utf8')) : undefined;
  return { ...result, report };
}

function expectNoCrash(result: { stdout: string; stderr: string }, expect: ExpectStatic) {
  const output = result.stdout + result.stderr;
  expect(output, 'no stack trace reaches the user').not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
  expect(output, 'the API key never appears in output').not.toContain('hostile-test-key');
}

describe.concurrent('a target that cannot be reached or is not the API ends the run at once: verdict error, exit 2 and a report', () => {
  it.for<[string, Hostility | 'closed', RegExp]>([
    ['not listening', 'closed', /connection refused/],
    ['never answers', 'silent', NO_RESPONSE],
    ['resets mid-response', 'reset', /reset|not valid HTTP/],
    ['answers bytes that are not HTTP', 'garbage', /not valid HTTP|reset/],
    ['drips its body byte by byte', 'drip', BODY_CUT],
    ['HTML for everything', 'html', /does not serve the Notification API: GET http:\/\/127\.0\.0\.1:\d+\/v1\/environments answered 200 with text\/html/],
    ['JSON content type over an HTML body', 'liar', /does not serve the Notification API: .* answered 200 with application\/json, not JSON/],
  ])('%s', async ([, kind, message], context) => {
    const { expect } = context;
    const url = kind === 'closed' ? await closedPort() : await hostile(kind, context);
    const result = await runAgainst(url);
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stdout).toMatch(message);
    expect(result.stdout, 'the message names the exchange').toContain('GET http://127.0.0.1:');
    expect(result.stdout, 'a run that could not run never reads as a broken target').not.toMatch(/NON-CONFORMANT/);
    expect(result.stdout).toMatch(/^COULD NOT RUN: /m);
    expect(result.report?.summary.verdict).toBe('error');
    expect(result.report?.summary.error).toMatch(message);
    expect(result.report?.summary.tests.total, 'no test ran').toBe(0);
    expect(result.stdout, 'nothing was created, so nothing is reported left').not.toContain('LEAK:');
    expect(result.report?.requirements.every((r: { verdict: string }) => r.verdict === 'not-verified'), 'nothing is claimed to pass').toBe(true);
    expectNoCrash(result, expect);
  });
});

describe.concurrent('a target that answers, but wrongly, fails the run with exit 1 and one clear message per exchange', () => {
  it.for<[string, Hostility, RegExp]>([
    ['a 10 MB body', 'huge', /response body larger than \d+ bytes/],
  ])('%s', async ([, kind, message], context) => {
    const { expect } = context;
    // why: AUTH-01's own tests suffice; a rule checked on every exchange would send every suite's traffic to garbage
    // why: reading the first 4 MB of the body takes seconds on a busy machine; the size bound is under test, not the time one
    const result = await runAgainst(await hostile(kind, context), 'AUTH-01', undefined, 30_000);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    const messages = result.report.requirements.flatMap((r: { tests: { message?: string }[] }) => r.tests.map((t) => t.message ?? ''));
    expect(messages.join('\n')).toMatch(message);
    expect(result.report.requirements.find((r: { id: string }) => r.id === 'AUTH-01').verdict).toBe('fail');
    expectNoCrash(result, expect);
  });

  it('a target that stops answering after the pre-flight is bounded by timeouts.runMs', async (context) => {
    const { expect } = context;
    const result = await runAgainst(await hostile('hang-after-preflight', context), undefined, RUN_BOUND_MS);
    // Liveness, not speed: the run ends by itself (runCli kills only a run silent for minutes, which leaves no exit code)
    // with its reports, however busy the machine; a run cut short by its bound is incomplete, never non-conformant.
    expect(result.code, result.stdout + result.stderr).toBe(3);
    expect(result.report.summary.verdict).toBe('incomplete');
    expect(result.report.errors).toEqual([]);
    expect(result.stdout).toMatch(/^Stopped: the run reached its time bound, timeouts\.runMs = 15000 ms/m);
    const reasons = result.report.summary.unverifiedMust.map((r: { reason: string }) => r.reason).join('\n');
    expect(reasons, 'the rules cut off name the bound').toMatch(/timeouts\.runMs/);
    expect(reasons).not.toMatch(/no test exercised this rule/);
    // each unanswered request is a transport fault the test met (and ran again for), named with its bound
    const faults = result.report.requirements.flatMap((r: { tests: { transport?: { faults: string[] } }[] }) => r.tests.flatMap((t) => t.transport?.faults ?? []));
    expect(faults.join('\n')).toMatch(NO_RESPONSE);
    expect(result.report.summary.transport.faultsMet).toBeGreaterThan(0);
    expectNoCrash(result, expect);
  });
});
