// `conformance fuzz` exits 0 with nothing found, 1 with findings, 2 on usage errors or a run that could not run or
// stopped, 3 when an operation's set-up failed, and writes fuzz.json with the seed, the counts per operation, the
// findings and why it stopped (no API key anywhere), whatever the target answers.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.ts';
import { resolveSettings } from '../../config/resolve-settings.ts';
import { fuzzCommand } from '../../fuzz/fuzz-command.ts';
import { startReference } from '../../reference/index.ts';

const dir = () => mkdtempSync(join(tmpdir(), 'cft-fuzz-'));

describe('conformance fuzz', () => {
  it('exits 1 with a finding and writes it, with the seed and the counts, to fuzz.json', async () => {
    const reportDir = dir();
    const settings = resolveSettings({ env: {}, flags: { 'run.reportDir': reportDir, 'reference.faults': ['context-value-object-crash'] } });
    const lines: string[] = [];
    const outcome = await fuzzCommand(settings, { seed: 1, budget: 30, operations: ['update-subscriber-preferences'] }, (l) => lines.push(l));
    expect(outcome.exitCode).toBe(1);
    const report = JSON.parse(readFileSync(join(reportDir, 'fuzz.json'), 'utf8'));
    expect(report).toMatchObject({ format: 'notification-api-conformance/fuzz', seed: 1, budget: 30, target: { embeddedReference: true, faults: ['context-value-object-crash'] } });
    expect(report.operations).toEqual([expect.objectContaining({ operation: 'update-subscriber-preferences', valid: expect.objectContaining({ cases: 30 }), invalid: expect.objectContaining({ cases: 30 }) })]);
    expect(report.findings[0]).toMatchObject({ rule: 'PREF-01', level: 'error', status: 500 });
    const text = `${lines.join('\n')}\n${readFileSync(join(reportDir, 'fuzz.json'), 'utf8')}`;
    expect(text).toContain('reproduce: curl');
    expect(text).toContain('${CONFORMANCE_API_KEY}');
    expect(text).not.toMatch(/nk_dev_[0-9a-f]{32}/);
  });

  it('exits 0 when nothing is found', async () => {
    const settings = resolveSettings({ env: {}, flags: { 'run.reportDir': dir() } });
    const outcome = await fuzzCommand(settings, { seed: 1, budget: 20, operations: ['layout-preview', 'list-environments'] }, () => undefined);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.result?.findings).toEqual([]);
  });

  it('exits 2 when the target cannot be reached, naming the pre-flight', async () => {
    const settings = resolveSettings({ env: {}, flags: { 'run.reportDir': dir(), 'target.baseUrl': 'http://127.0.0.1:9', 'target.apiKey': 'k' } });
    const lines: string[] = [];
    expect((await fuzzCommand(settings, { seed: 1, budget: 5, operations: [] }, (l) => lines.push(l))).exitCode).toBe(2);
    expect(lines.join('\n')).toMatch(/unreachable \(pre-flight GET http:\/\/127.0.0.1:9\/v1\/environments.*connection refused/);
  });

  it.each([
    [['fuzz', '--budget', '5', '--time', '3'], /--budget or --time, not both/],
    [['fuzz', '--operation', 'create-workflows'], /--operation: unknown create-workflows; known: create-workflow/],
    [['fuzz', '--seed', '-1'], /--seed takes a whole number/],
    [['fuzz', '--seed', ''], /--seed takes a whole number .* in decimal digits, got ""/],
    [['fuzz', '--seed', '0x10'], /--seed takes a whole number .* in decimal digits, got "0x10"/],
    [['diff'], /--target is required/],
  ])('usage errors exit 2: %j', async (args, message) => {
    const stderr: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((s: string) => (stderr.push(String(s)), true)) as typeof process.stderr.write;
    try {
      expect(await main(args, {})).toBe(2);
    } finally {
      process.stderr.write = write;
    }
    expect(stderr.join('')).toMatch(message);
  });

  describe('a target that answers badly never loses the run', () => {
    const servers: Server[] = [];
    afterEach(async () => {
      await Promise.all(servers.splice(0).map((srv) => new Promise((resolve) => srv.close(resolve))));
    });
    async function serve(answer: (method: string, url: string, res: ServerResponse, count: number) => void): Promise<string> {
      let count = 0;
      const srv = createServer((req, res) => {
        req.resume();
        answer(req.method!, req.url!, res, ++count);
      });
      servers.push(srv);
      await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
    }
    const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    async function fuzzAgainst(baseUrl: string, operations: string[], apiKey = 'k') {
      const reportDir = dir();
      const lines: string[] = [];
      // the stand-in targets send no rate-limit headers: declared off, so only what each test is about is judged
      const settings = resolveSettings({ env: { CONFORMANCE_FEATURE_RATE_LIMITING: 'false' }, flags: { 'run.reportDir': reportDir, 'target.baseUrl': baseUrl, 'target.apiKey': apiKey } });
      const outcome = await fuzzCommand(settings, { seed: 1, budget: 20, operations }, (l) => lines.push(l));
      return { outcome, text: lines.join('\n'), report: JSON.parse(readFileSync(join(reportDir, 'fuzz.json'), 'utf8')) };
    }

    it('a wrong API key ends at the pre-flight with exit 2 naming --api-key, and fuzz.json says why', async () => {
      const ref = await startReference({ rateLimiting: false });
      try {
        const { outcome, text, report } = await fuzzAgainst(ref.baseUrl, [], 'nk_dev_wrong');
        expect(outcome.exitCode).toBe(2);
        expect(text).toMatch(/did not accept the primary API key \(--api-key \/ CONFORMANCE_API_KEY\).*401/);
        expect(report).toMatchObject({ summary: { requests: 0, complete: false }, stopped: { operation: 'pre-flight' } });
      } finally {
        await ref.close();
      }
    });

    it('a server answering 200 with text that is not JSON ends at the pre-flight naming the base URL', async () => {
      const base = await serve((_m, _u, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello'));
      const { outcome, text, report } = await fuzzAgainst(base, []);
      expect(outcome.exitCode).toBe(2);
      expect(text).toMatch(/base URL \(--target \/ CONFORMANCE_TARGET\).*does not serve the Notification API.*200 with text\/plain, not JSON/);
      expect(report.stopped.reason).toMatch(/^pre-flight: /);
    });

    it('a set-up the target refuses (501) leaves the operation not fuzzed, the others fuzzed, and exit 3 when nothing else is found', async () => {
      const base = await serve((method, url, res) => {
        if (method === 'GET' && url.startsWith('/v1/environments')) return json(res, 200, { data: [] });
        if (url.startsWith('/v1/environments')) return res.writeHead(405, { 'content-type': 'application/json', allow: 'GET' }).end(JSON.stringify({ statusCode: 405, timestamp: new Date().toISOString(), path: url }));
        json(res, 501, { statusCode: 501, timestamp: new Date().toISOString(), path: url, message: 'Not Implemented' });
      });
      const { outcome, text, report } = await fuzzAgainst(base, ['list-environments', 'update-subscriber-preferences']);
      expect(report.findings).toEqual([]);
      expect(outcome.exitCode).toBe(3);
      expect(text).toMatch(/NOT FUZZED: update-subscriber-preferences: its set-up failed on the target's answer: .*501/);
      expect(report.summary).toMatchObject({ complete: true, notFuzzed: [{ operation: 'update-subscriber-preferences' }] });
      expect(report.operations).toEqual([expect.objectContaining({ operation: 'list-environments', valid: expect.objectContaining({ requests: 1 }) }), expect.objectContaining({ operation: 'update-subscriber-preferences', setupFailed: expect.stringContaining('501') })]);
    });

    it('a target that goes away mid-run stops the run with exit 2; what it sent and why it stopped are in fuzz.json', async () => {
      let srv: Server | undefined;
      const base = await serve((_m, url, res, count) => {
        if (count === 6) {
          // the process dies: no answer, and no listener any more
          srv!.close();
          srv!.closeAllConnections();
          return;
        }
        json(res, 200, url.startsWith('/v1/environment-variables') ? { data: [] } : { data: [] });
      });
      srv = servers[0];
      const { outcome, text, report } = await fuzzAgainst(base, ['list-environment-variables']);
      expect(outcome.exitCode).toBe(2);
      expect(text).toMatch(/STOPPED during list-environment-variables/);
      expect(report.stopped).toMatchObject({ operation: 'list-environment-variables' });
      expect(report.summary.requests).toBeGreaterThanOrEqual(4);
    });

    it('an unwritable --report-dir is named before anything is sent', async () => {
      let requests = 0;
      const base = await serve((_m, url, res) => {
        requests += 1;
        json(res, 200, { data: [] });
      });
      const file = join(dir(), 'a-file');
      writeFileSync(file, 'not a folder');
      const lines: string[] = [];
      const settings = resolveSettings({ env: {}, flags: { 'run.reportDir': join(file, 'reports'), 'target.baseUrl': base, 'target.apiKey': 'k' } });
      expect((await fuzzCommand(settings, { seed: 1, budget: 5, operations: [] }, (l) => lines.push(l))).exitCode).toBe(2);
      expect(lines.join('\n')).toMatch(/--report-dir .*a-file\/reports: the reports cannot be written there/);
      expect(requests).toBe(0);
    });

    // Node's recursive mkdir never returns for a path under /proc: the probe makes one folder at a time
    it.runIf(existsSync('/proc/self'))('a --report-dir under /proc is refused at once, not a hang', async () => {
      const lines: string[] = [];
      const settings = resolveSettings({ env: {}, flags: { 'run.reportDir': '/proc/cft-no-such/reports' } });
      expect((await fuzzCommand(settings, { seed: 1, budget: 5, operations: [] }, (l) => lines.push(l))).exitCode).toBe(2);
      expect(lines.join('\n')).toMatch(/--report-dir \/proc\/cft-no-such\/reports: the reports cannot be written there/);
    });
  });
});
