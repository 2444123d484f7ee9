import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Writer } from 'allure-js-commons/sdk/reporter';
import { Redactor } from '../../report/redactor.ts';
import { metadataMessage, warningWriter, WARNING_PREFIX } from '../../report/allure-labels.ts';
import { writeLoadAllureResults } from '../../report/allure-load-results.ts';
import { redactingWriter } from '../../harness/runner/allure-reporter.ts';
import { stripAnalytics } from '../../report/allure-report.ts';

describe('Allure labels', () => {
  it('carry rule, level and area as epic and feature, and the rule text as description', () => {
    const message = metadataMessage(['TRIG-02'], undefined, undefined) as { data: { labels: { name: string; value: string }[]; description: string } };
    const labels = Object.fromEntries(message.data.labels.map((l) => [l.name, l.value]));
    expect(labels).toMatchObject({ epic: 'TRIG: trigger an event (POST /v1/events/trigger)', feature: 'TRIG-02 (MUST)', rule: 'TRIG-02', level: 'MUST', severity: 'critical' });
    expect(message.data.description).toMatch(/^\*\*TRIG-02\*\* \(MUST, spec § .+\): /);
  });

  it('mark a SHOULD-level case of a MUST rule and the reason a test did not run', () => {
    const message = metadataMessage(['AUTH-03'], 'SHOULD', 'no restricted key') as { data: { labels: { name: string; value: string }[]; description: string } };
    expect(message.data.labels).toContainEqual({ name: 'level', value: 'SHOULD' });
    expect(message.data.description).toContain('Not run: no restricted key');
  });
});

describe('SHOULD failures in Allure', () => {
  const labels = (level: string) => [{ name: 'rule', value: 'X-01' }, { name: 'level', value: level }];

  it('are written as broken (a warning), never as failed; MUST failures and passes stay as they are', () => {
    const written: { status?: string; statusDetails?: { message?: string } }[] = [];
    const writer = warningWriter({ writeResult: (r: never) => void written.push(r) } as unknown as Writer);
    writer.writeResult({ status: 'failed', labels: labels('SHOULD'), statusDetails: { message: 'no Retry-After' } } as never);
    writer.writeResult({ status: 'failed', labels: labels('MUST'), statusDetails: { message: 'wrong status' } } as never);
    writer.writeResult({ status: 'passed', labels: labels('SHOULD'), statusDetails: {} } as never);
    expect(written.map((r) => r.status)).toEqual(['broken', 'failed', 'passed']);
    expect(written[0]!.statusDetails!.message).toBe(`${WARNING_PREFIX}no Retry-After`);
  });

  it('of the load harness are written as broken too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'allure-load-'));
    const test = (name: string, level?: 'SHOULD') => ({ name, status: 'failed' as const, durationMs: 1, message: 'm', ...(level ? { level } : {}) });
    writeLoadAllureResults(dir, [{ rule: 'RL-05', test: test('load a [RL-05]', 'SHOULD') }, { rule: 'RL-05', test: test('load b [RL-05]') }], new Date());
    const results = readdirSync(join(dir, 'allure-results')).filter((f) => f.endsWith('-result.json')).map((f) => JSON.parse(readFileSync(join(dir, 'allure-results', f), 'utf8')) as { name: string; status: string });
    expect(Object.fromEntries(results.map((r) => [r.name, r.status]))).toEqual({ 'load a [RL-05]': 'broken', 'load b [RL-05]': 'failed' });
  });
});

describe('redactingWriter', () => {
  it('replaces every key in results, containers and attachments before they are written', () => {
    const key = 'nk_live_secret_0123456789';
    const written: unknown[] = [];
    const inner = new Proxy({}, { get: (_t, name) => (...args: unknown[]) => written.push([name, ...args.map((a) => (Buffer.isBuffer(a) ? a.toString('utf8') : a))]) }) as Writer;
    const writer = redactingWriter(inner, () => new Redactor([{ value: key, placeholder: 'CONFORMANCE_API_KEY' }]));
    writer.writeResult({ name: 't', statusDetails: { message: `expected ${key}` }, steps: [{ name: `expect("${key}")` }] } as never);
    writer.writeAttachment('a.txt', Buffer.from(`authorization: ApiKey ${key}`));
    writer.writeGroup({ name: key } as never);
    expect(JSON.stringify(written)).not.toContain(key);
    expect(JSON.stringify(written)).toContain('${CONFORMANCE_API_KEY}');
  });
});

describe('stripAnalytics', () => {
  it('removes the Google Analytics loader and its inline set-up, and keeps every other script', () => {
    const page = `<head></head><body><script>window.allure = {};</script>
    <script async src="https://www.googletagmanager.com/gtag/js?id=G-X"></script>
    <script>
        window.dataLayer = window.dataLayer || [];
        function gtag(){dataLayer.push(arguments);}
        gtag('js', new Date());
    </script>
    <script async>window.allureReportDataReady = true;</script></body>`;
    const out = stripAnalytics(page);
    expect(out).not.toMatch(/googletagmanager|gtag|dataLayer/);
    expect(out).toContain('window.allure = {};');
    expect(out).toContain('window.allureReportDataReady = true;');
  });

  it('refuses a page where analytics survive in a form it does not know', () => {
    expect(() => stripAnalytics('<script src="data:x"></script><img src="https://www.googletagmanager.com/x">')).toThrow(/analytics/);
  });
});
