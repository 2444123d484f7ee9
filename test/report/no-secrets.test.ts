// Runs the suite against a reference whose faults put API keys into responses (api-keys-leaked) and make key
// checks fail (bearer-accepted), then searches every artifact and every printed line for every configured key.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printSummary, progressPrinter } from '../../cli/progress.ts';
import { resolveSettings } from '../../config/resolve-settings.ts';
import { buildAllureReport } from '../../report/allure-report.ts';
import { writeBundleFromDir } from '../../certify/write-bundle.ts';
import { runConformance, type RunOutcome } from '../../harness/runner/conformance-run.ts';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { findSecretsInDir, findSecretsInText } from './artifact-scan.ts';

describe('no configured API key or --header value reaches any artifact or output', () => {
  // a gateway token sent on every request (--header): a secret like the keys
  const WAF_TOKEN = 'waf_0f1e2d3c4b5a69788796a5b4';
  const dir = mkdtempSync(join(tmpdir(), 'no-secrets-'));
  const lines: string[] = [];
  let reference: RunningReference;
  let keys: string[];
  let outcome: RunOutcome;

  beforeAll(async () => {
    reference = await startReference({ faults: ['api-keys-leaked', 'bearer-accepted'] });
    keys = [...Object.values(reference.apiKeys), WAF_TOKEN];
    const settings = resolveSettings({
      env: {},
      flags: {
        'target.baseUrl': reference.baseUrl,
        'target.apiKey': reference.apiKeys.dev,
        'target.secondaryApiKey': reference.apiKeys.prod,
        'target.restrictedApiKey': reference.apiKeys.restricted,
        'run.reportDir': dir,
        'network.headers': { 'X-Waf-Token': WAF_TOKEN },
      },
    });
    const log = (line: string) => lines.push(line);
    // The AUTH and ENV suites: every key is sent, and ENV responses carry keys under this fault.
    outcome = await runConformance(settings, { log, onRecord: progressPrinter(log) }, ['suites/auth/unacceptable-keys', 'suites/auth/environment-isolation', 'suites/environments/']);
    printSummary(outcome.report, log);
    log(`Bundle: ${await writeBundleFromDir(dir, { settings })}`);
    log(`Allure report: ${buildAllureReport(dir)}`);
  });

  afterAll(async () => {
    await reference?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the run exercised the keys: failures with evidence, and attachments of exchanges', () => {
    const verdict = (id: string) => outcome.report.requirements.find((r) => r.id === id)?.verdict;
    expect([verdict('AUTH-03'), verdict('ENV-03')]).toEqual(['fail', 'warn']);
    const evidence = outcome.report.requirements.flatMap((r) => r.tests.flatMap((t) => t.evidence ?? []));
    expect(evidence.join('\n')).toContain('${CONFORMANCE_API_KEY}');
    expect(evidence.join('\n')).toContain('x-waf-token: ${CONFORMANCE_HEADER_X_WAF_TOKEN}');
    // The keys were in the responses (api-keys-leaked): the recording replaced them.
    expect(evidence.join('\n')).toContain('"key":"[REDACTED]"');
    const { files } = findSecretsInDir(dir, []);
    for (const artifact of ['conformance.json', 'junit.xml', 'conformance.html', 'conformance-bundle.tar.gz!configuration.json', 'allure-report/index.html']) {
      expect(files.some((f) => f.endsWith(artifact)), artifact).toBe(true);
    }
    expect(files.filter((f) => f.includes('allure-results') && f.endsWith('-attachment.txt')).length).toBeGreaterThan(20);
  });

  it('finds no key in any file, bundle member or printed line', () => {
    const { hits } = findSecretsInDir(dir, keys);
    hits.push(...findSecretsInText('stdout', lines.join('\n'), keys));
    expect(hits).toEqual([]);
  });

  it('the search itself finds a key in plain text and inside base64', () => {
    const key = 'nk_live_0123456789abcdef';
    expect(findSecretsInText('x', `a ${key} b`, [key])).toHaveLength(1);
    expect(findSecretsInText('x', `data:text/plain;base64,${Buffer.from(`{"k":"${key}"}`).toString('base64')}`, [key])).toHaveLength(1);
  });
});
