// No API key in any artifact: the load harness redacts what a target echoes (a 429 body holding the caller's key)
// as a run does, and `conformance bundle` searches every file for the run's keys — known from the settings and the
// environment, since configuration.json holds them redacted — and refuses to write or sign a bundle that holds one.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { reportLoad, type LoadDocument } from '../../load/load-report.ts';
import { junitXml } from '../../report/junit.ts';
import { redactSettings } from '../../report/redacted-settings.ts';
import { certifiableReport } from './sample-report.ts';

const KEY = 'sk_live_vendor_echoed_4f9a';
const dir = mkdtempSync(join(tmpdir(), 'key-in-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const loadDoc = (): LoadDocument => ({
  engine: 'node',
  profile: 'full',
  target: { baseUrl: 'http://127.0.0.1:9', embeddedReference: false, faults: [] },
  expectedRps: 200,
  startedAt: new Date().toISOString(),
  verdicts: [{ id: 'RL-05', level: 'MUST', verdict: 'fail', tests: [{ name: 'load RL-05 over the limit', status: 'failed', durationMs: 1, message: `429 body: {"error":"key ${KEY} over its limit"}` }] } as unknown as LoadDocument['verdicts'][number]],
  leaks: [],
  timelines: [{ scenario: 'trigger-over-limit', routes: { trigger: { examples: [{ status: 429, headers: {}, body: `{"apiKey":"${KEY}"}` }] } } } as unknown as LoadDocument['timelines'][number]],
});

describe('no key in any artifact', () => {
  it('the load harness redacts a key the target echoed, in load.json, the merged report and what it prints', () => {
    const reportDir = mkdtempSync(join(dir, 'load-'));
    const report = { ...certifiableReport(), target: { ...certifiableReport().target, baseUrl: 'http://127.0.0.1:9' } };
    writeFileSync(join(reportDir, 'conformance.json'), JSON.stringify(report));
    const lines: string[] = [];
    reportLoad(reportDir, loadDoc(), { log: (l) => lines.push(l) }, [KEY]);
    for (const name of ['load.json', 'conformance.json', 'junit.xml', 'conformance.html']) {
      const text = readFileSync(join(reportDir, name), 'utf8');
      expect(text, name).not.toContain(KEY);
    }
    expect(readFileSync(join(reportDir, 'load.json'), 'utf8')).toContain('${CONFORMANCE_API_KEY}');
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it.for([
    ['as written', KEY],
    ['in base64', Buffer.from(KEY).toString('base64')],
  ])('`conformance bundle` refuses a report dir whose conformance.json holds the key %s (exit 2, nothing written)', async ([, form]) => {
    const reportDir = mkdtempSync(join(dir, 'bundle-'));
    const report = certifiableReport();
    report.requirements[0]!.tests[0]!.message = `the target answered ${form}`;
    writeFileSync(join(reportDir, 'conformance.json'), JSON.stringify(report));
    writeFileSync(join(reportDir, 'junit.xml'), junitXml(report));
    writeFileSync(join(reportDir, 'configuration.json'), JSON.stringify(redactSettings({ ...structuredClone(DEFAULT_SETTINGS), target: { baseUrl: report.target.baseUrl, apiKey: KEY } })));
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const code = await main(['bundle', '--report-dir', reportDir], { CONFORMANCE_API_KEY: KEY });
      const printed = [...out.mock.calls, ...err.mock.calls].map((c) => String(c[0])).join('');
      expect(printed).toContain(`${join(reportDir, 'conformance.json')} holds one of the run's API keys: no bundle written and nothing signed`);
      expect(printed).not.toContain(KEY);
      expect(code).toBe(2);
      expect(existsSync(join(reportDir, 'conformance-bundle.tar.gz'))).toBe(false);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });
});
