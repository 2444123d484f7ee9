// One bug, one root cause: failures are grouped by what failed, read from the wordings the real checks produce.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectErrorResponse } from '../../harness/checks/error-body.ts';
import { checksOfTheRun, observe } from '../../fixtures/conformance.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';
import type { Exchange } from '../../harness/http/exchange.ts';
import { buildReport, type ConformanceReport } from '../../report/conformance-report.ts';
import { rootCauseHeadline, rootCausesOf } from '../../report/root-causes.ts';
import { computeVerdicts } from '../../report/verdicts.ts';
import type { TestRecord } from '../../report/test-record.ts';
import { mergeReport } from '../../load/merge-into-report.ts';
import { runCli } from '../hostile/run-cli.ts';
import { record } from './sample-report.ts';

// Every check of a full run, the official client's included.
const CHECKS = await checksOfTheRun([]);

const on = { idempotency: true, rateLimiting: true };
const rateHeaders = { 'content-type': 'application/json', 'ratelimit-limit': '3000', 'ratelimit-remaining': '10', 'ratelimit-reset': '0', 'ratelimit-policy': '3000;w=5;burst=3300' };
const exchange = (method: string, path: string, status: number, body: unknown): Exchange => ({
  method,
  url: `http://127.0.0.1:1${path}`,
  requestHeaders: { authorization: 'ApiKey ${CONFORMANCE_API_KEY}' },
  status,
  responseHeaders: rateHeaders,
  responseBody: JSON.stringify(body),
  durationMs: 1,
  authenticated: true,
});
const response = (e: Exchange): ApiResponse => ({ status: e.status!, headers: e.responseHeaders!, text: e.responseBody!, json: JSON.parse(e.responseBody!), data: undefined, exchange: e });

/** The message a failing conformance() test records: the assertion, then the rule and the last exchange. */
function failureOf(assertion: () => void, rule: string): string {
  try {
    assertion();
  } catch (error) {
    return `${(error as Error).message}\n\nRule: ${rule} (MUST, …): …`;
  }
  throw new Error('the assertion did not fail');
}

/** A failed test of `rules` whose traffic was `exchanges` (so the checks over all traffic see it too). */
function failed(name: string, rules: string[], message: string, exchanges: Exchange[] = []): TestRecord {
  return record(rules, 'failed', { name: `${name} [${rules.join(', ')}]`, message, evidence: ['POST http://127.0.0.1:1/x → 401\n  reproduce: curl …'], observations: observe(exchanges, { features: on }, CHECKS) });
}

// What a target whose only bug is error bodies without `path` answers.
const noPath = (status: number, extra: object = {}) => ({ statusCode: status, timestamp: '2026-01-01T00:00:00.000Z', message: 'x', ...extra });

describe('root causes', () => {
  it('groups every failure of an error body without `path` into one cause covering every rule it breaks', () => {
    const unauthorized = exchange('POST', '/v2/workflows', 401, noPath(401));
    const notFound = exchange('GET', '/v2/workflows/nope', 404, noPath(404));
    const validation = exchange('POST', '/v1/events/trigger', 422, noPath(422, { errors: { to: { messages: ['too many'] } } }));
    const throttled = exchange('POST', '/v1/events/trigger', 429, noPath(429, { message: 'API rate limit exceeded' }));
    const records = [
      failed('POST /v2/workflows without Authorization gets 401', ['AUTH-01'], failureOf(() => expectErrorResponse(response(unauthorized), 401, 'a request without an Authorization header'), 'AUTH-01'), [unauthorized]),
      failed('an unknown workflow gets 404', ['ERR-03'], failureOf(() => expectErrorResponse(response(notFound), 404, 'GET /v2/workflows/{unknown}'), 'ERR-03'), [notFound]),
      failed('a 404 carries the common error body', ['ERR-01'], failureOf(() => expect(JSON.parse(notFound.responseBody!)).toMatchSchema('ErrorDto'), 'ERR-01'), [notFound]),
      failed('a 422 carries the validation error body', ['ERR-02'], failureOf(() => expect(JSON.parse(validation.responseBody!)).toMatchSchema('ValidationErrorDto'), 'ERR-02'), [validation]),
      failed('an exhausted bucket answers 429', ['RL-04'], failureOf(() => expect({ method: 'POST', path: '/v1/events/trigger', status: 429, body: JSON.parse(throttled.responseBody!) }).toMatchResponseSchema(), 'RL-04'), [throttled]),
    ];
    const requirements = computeVerdicts(records, on);
    const causes = rootCausesOf(requirements);

    expect(causes.map((c) => c.signature)).toEqual(['error-body:path:missing']);
    expect(causes[0]!.summary).toBe('error bodies lack `path`');
    // The passive ERR-01/ERR-02/RL-04 checks over all traffic say the same, so their rules are there once; so does
    // the official client's reading of the error bodies (CLIENT-03).
    expect(causes[0]!.rules).toEqual(['AUTH-01', 'ERR-01', 'ERR-02', 'ERR-03', 'RL-04', 'CLIENT-03']);
    expect(causes[0]!.tests).toBe(9);
    expect(causes[0]!.example).toMatchObject({ rule: 'AUTH-01', message: expect.stringContaining('error body path') as string, evidence: expect.stringContaining('reproduce: curl') as string });
    expect(rootCauseHeadline(causes, requirements)).toBe('1 root cause breaks 4 MUST rules (2 more rules warn): error bodies lack `path`');
  });

  it('keeps two bugs apart: a missing `timestamp` is another cause than a missing `path`', () => {
    const body = { statusCode: 404, message: 'x' };
    const e = exchange('GET', '/v2/workflows/nope', 404, body);
    const causes = rootCausesOf(computeVerdicts([failed('an unknown workflow gets 404', ['ERR-03'], failureOf(() => expectErrorResponse(response(e), 404, 'GET'), 'ERR-03'), [e])], on));
    expect(causes.map((c) => c.signature).sort()).toEqual(['error-body:path:missing', 'error-body:timestamp:missing']);
  });

  it('keys a wrong status by the status the rule requires, listing what came back', () => {
    const status = (got: number, want: number) => failureOf(() => expect(got, `a request without an Authorization header: expected HTTP ${want}, got ${got}`).toBe(want), 'AUTH-01');
    const causes = rootCausesOf(computeVerdicts([
      failed('GET without Authorization', ['AUTH-01'], status(200, 401)),
      failed('POST without Authorization', ['AUTH-01'], status(201, 401)),
      failed('GET a workflow without a key', ['AUTH-06'], failureOf(() => expect(404, 'GET /v2/workflows/{id} with no Authorization header is refused with 401').toBe(401), 'AUTH-06')),
    ], on));
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatchObject({ signature: 'status:401', summary: 'a status other than the required 401 (got 200, 201, 404)', rules: ['AUTH-01', 'AUTH-06'], tests: 3 });
    // The fixture that asks whether a trigger created a subscriber words its status check its own way.
    const exists = rootCausesOf(computeVerdicts([failed('recipient', ['TRIG-03'], 'GET /v2/subscribers/cft-9944c5-rcpt-10af22-2/preferences answered 400; expected 200 (exists) or 404 (does not)')], on));
    expect(exists[0]).toMatchObject({ signature: 'status:200 or 404', summary: 'a status other than the required 200 or 404 (got 400)' });
  });

  it('makes one cause of one answer given where different statuses are required (every route 404 under a wrong prefix)', () => {
    const causes = rootCausesOf(computeVerdicts([
      failed('trigger', ['TRIG-01'], failureOf(() => expect(404, 'the trigger is accepted').toBe(201), 'TRIG-01')),
      failed('no key', ['AUTH-01'], failureOf(() => expect(404, 'a request without a key: expected HTTP 401, got 404').toBe(401), 'AUTH-01')),
      failed('key', ['IDEM-01'], failureOf(() => expect(false, 'a keyed request must succeed (2xx), got 404').toBe(true), 'IDEM-01')),
      failed('other', ['WF-01'], failureOf(() => expect(201, 'a body without name is rejected').toBe(422), 'WF-01')),
    ], on));
    expect(causes.map((c) => [c.signature, c.rules])).toEqual([
      ['status:answered 404', ['AUTH-01', 'IDEM-01', 'TRIG-01']],
      ['status:422', ['WF-01']],
    ]);
    expect(causes[0]!.summary).toBe('HTTP 404 where another status is required (201; 2xx; 401)');
  });

  it('makes one cause of a transport fault that repeated on one request, across the rules of every test it broke', () => {
    const repeated = (request: string) => `the target resets the connection on ${request} every time it is sent (3 tries, each from the start with fresh data): a transport fault that repeats on one request is a finding, not the network\n(last try: …)`;
    const causes = rootCausesOf(computeVerdicts([
      failed('recipients', ['TRIG-02'], repeated('POST /v1/events/trigger')),
      failed('drain', ['RL-04'], repeated('POST /v1/events/trigger')),
      failed('topic', ['TS-03'], repeated('DELETE /v2/topics/{id}')),
    ], on));
    expect(causes.map((c) => [c.signature, c.summary, c.rules])).toEqual([
      ['transport:resets:POST /v1/events/trigger', 'the target resets the connection on POST /v1/events/trigger', ['RL-04', 'TRIG-02']],
      ['transport:resets:DELETE /v2/topics/{id}', 'the target resets the connection on DELETE /v2/topics/{id}', ['TS-03']],
    ]);
  });

  it('matches any other assertion across tests by its wording, with the values of one test masked', () => {
    const created = (id: string, url: string) => failureOf(() => expect([id], `a trigger with bridgeUrl ${url} must trigger nothing, yet the subscriber objects it named were created: ${id}`).toEqual([]), 'TRIG-05');
    const causes = rootCausesOf(computeVerdicts([
      failed('loopback', ['TRIG-05'], created('cft-23874c-rcpt-f8cd85-2', 'https://127.0.0.1/api/novu')),
      failed('metadata', ['TRIG-05'], created('cft-23874c-rcpt-83116b-9', 'https://169.254.169.254/latest/meta-data/')),
      failed('other', ['TRIG-05'], failureOf(() => expect('queued', 'the trigger is processed').toBe('processed'), 'TRIG-05')),
    ], on));
    expect(causes.map((c) => c.tests)).toEqual([2, 1]);
    expect(causes[0]!.summary).toContain('must trigger nothing');
  });

  it('is part of conformance.json and is recomputed when a load run merges its verdicts', () => {
    const report = buildReport({
      target: { baseUrl: 'http://t', embeddedReference: true, faults: [] },
      startedAt: new Date(0),
      finishedAt: new Date(1),
      requirements: computeVerdicts([record(['RL-05'], 'skipped', { outcome: 'not-verified', reason: 'load harness' })], on),
      leaks: [],
      errors: [],
    });
    expect(report.rootCauses).toEqual([]);
    const merged = mergeReport(report, [{ id: 'RL-05', level: 'MUST', verdict: 'fail', tests: [{ name: 'load trigger-limit converges [RL-05]', status: 'failed', durationMs: 0, message: 'accepted 903/s, expected 600/s ± 10%' }] }]);
    expect(merged.rootCauses.map((c) => c.rules)).toEqual([['RL-05']]);
  });

  it('under the reference fault that drops `path` from error bodies, a run reports one root cause for every rule it breaks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cft-root-cause-'));
    const result = await runCli(['run', '--fault', 'error-body-missing-path', '--rules', 'AUTH-01,AUTH-04,ERR-01,ERR-02,ERR-03,TRIG-06,LP-04', '--report-dir', dir]);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
    const broken = report.requirements.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').map((r) => r.id);
    expect(broken).toEqual(['AUTH-01', 'AUTH-04', 'ERR-01', 'ERR-02', 'ERR-03', 'LP-04', 'TRIG-06']);
    expect(report.rootCauses.map((c) => [c.signature, c.rules])).toEqual([['error-body:path:missing', broken]]);
    expect(result.stdout).toContain('1 root cause breaks 5 MUST rules (2 more rules warn): error bodies lack `path`');
    expect(result.stdout.indexOf('1 root cause breaks')).toBeLessThan(result.stdout.search(/^area +pass/m));
  });
});

