// One target per report: `conformance load` measures the target of the report it merges into, refuses another one
// before sending anything, and verify-bundle finds a bundle whose load summary measured another target INVALID.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadCommand, type LoadCommandOptions } from '../../cli/commands/load-command.ts';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { loadSummaryTargetCheck } from '../../report/load-target.ts';
import { verifyBundle } from '../../certify/verify-bundle.ts';
import { runCli } from '../hostile/run-cli.ts';

const root = mkdtempSync(join(tmpdir(), 'load-one-target-'));
let reference: RunningReference;
/** A report dir of `conformance run --rules AUTH-01` against `reference`, taken as an external target declared at 600/s. */
let reportDir: string;
let reportText: string;

beforeAll(async () => {
  reference = await startReference({ regional: false });
  reportDir = join(root, 'external');
  const run = await runCli(['run', '--target', reference.baseUrl, '--rules', 'AUTH-01', '--report-dir', reportDir], { CONFORMANCE_API_KEY: reference.apiKeys.dev, CONFORMANCE_TRIGGER_RPS: '600' });
  expect(run.code, run.stdout + run.stderr).toBe(3);
  reportText = readFileSync(join(reportDir, 'conformance.json'), 'utf8');
});
afterAll(async () => {
  await reference.close();
  rmSync(root, { recursive: true, force: true });
});

async function load(options: Partial<LoadCommandOptions>, dir = reportDir): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await loadCommand({ scenarios: ['bulk-cost'], engine: 'node', rateLimitRps: 600, reportDir: dir, allowRemoteLoad: false, profile: 'short', durationS: 1, ...options }, { log: (s) => lines.push(s) });
  return { code, out: lines.join('\n') };
}

describe('one target per report', () => {
  test('without --target, load measures the report\'s target at its declared limit and merges into it', async () => {
    const r = await load({ apiKey: reference.apiKeys.dev });
    expect(r.out).toContain(`Target: from ${join(reportDir, 'conformance.json')}: ${reference.baseUrl} at 600/s`);
    const doc = JSON.parse(readFileSync(join(reportDir, 'load.json'), 'utf8')) as { target: { baseUrl: string; embeddedReference: boolean }; expectedRps: number };
    expect(doc.target).toMatchObject({ baseUrl: reference.baseUrl, embeddedReference: false });
    expect(doc.expectedRps).toBe(600);
    expect(r.out).toMatch(/Merged RL verdicts into/);
  });

  test('the CLI takes the key from CONFORMANCE_API_KEY, as run does', async () => {
    const dir = join(root, 'cli');
    mkdirSync(dir);
    writeFileSync(join(dir, 'conformance.json'), reportText);
    const r = await runCli(['load', '--profile', 'short', '--scenario', 'bulk-cost', '--duration', '1', '--report-dir', dir], { CONFORMANCE_API_KEY: reference.apiKeys.dev });
    expect(r.stdout).toContain(`Target: from ${join(dir, 'conformance.json')}: ${reference.baseUrl} at 600/s`);
    expect(r.stdout).toMatch(/Merged RL verdicts into/);
    expect(r.stdout + r.stderr).not.toContain(reference.apiKeys.dev);
  });

  test.each([
    { what: 'another base URL', options: { target: 'http://127.0.0.1:9/', apiKey: 'k' }, reason: /the report is about http:\/\/127\.0\.0\.1:\d+ at 600\/s, the load run measured http:\/\/127\.0\.0\.1:9\/ at 600\/s \(another base URL\)/ },
    { what: 'the embedded reference', options: { faults: ['limit-too-strict'] }, reason: /the load run measured the embedded reference with faults limit-too-strict/ },
    { what: 'another declared limit', options: { apiKey: 'k', rateLimitRps: 300, explicitRateLimit: true }, reason: /measured http:\/\/127\.0\.0\.1:\d+ at 300\/s \(another declared trigger limit\)/ },
  ])('a load run against $what is refused with exit 2, nothing sent or merged', async ({ options, reason }) => {
    const dir = join(root, `refused-${Math.random().toString(36).slice(2)}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'conformance.json'), reportText);
    const r = await load(options, dir);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(reason);
    expect(r.out).toMatch(/nothing was sent and nothing merged/);
    expect(r.out).not.toMatch(/requests over/);
    expect(readFileSync(join(dir, 'conformance.json'), 'utf8')).toBe(reportText);
    expect(existsSync(join(dir, 'load.json'))).toBe(false);
  });

  test('a report of a run that could not run (verdict error) takes no load verdicts, and nothing is sent', async () => {
    const dir = join(root, 'could-not-run');
    const refused = await runCli(['run', '--target', reference.baseUrl, '--report-dir', dir], { CONFORMANCE_API_KEY: 'nk_dev_mistyped' });
    expect(refused.code, refused.stdout).toBe(2);
    const before = readFileSync(join(dir, 'conformance.json'), 'utf8');
    const r = await load({ apiKey: reference.apiKeys.dev }, dir);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/conformance\.json is a run that could not run \(the target did not accept the primary API key.*\): fix that and run `conformance run` again/);
    expect(r.out).not.toMatch(/requests over/);
    expect(readFileSync(join(dir, 'conformance.json'), 'utf8')).toBe(before);
  });

  test('a report folder whose conformance.json is not a report is named, and nothing is sent', async () => {
    const dir = join(root, 'garbled');
    mkdirSync(dir);
    writeFileSync(join(dir, 'conformance.json'), '{"target": ');
    const r = await load({}, dir);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/conformance\.json is not a report of `conformance run` \(.+\): the load would be merged into it \(--report-dir\)/);
    expect(r.out).not.toMatch(/requests over/);
  });

  test('recorded timelines of another target are not merged and leave nothing behind', async () => {
    const dir = join(root, 'timelines');
    mkdirSync(dir);
    writeFileSync(join(dir, 'conformance.json'), reportText);
    const recorded = JSON.parse(readFileSync(join(reportDir, 'load.json'), 'utf8')) as { timelines: unknown[] };
    const file = join(root, 'other-target.json');
    writeFileSync(file, JSON.stringify({ ...(recorded.timelines[0] as object), target: 'http://127.0.0.1:9' }));
    const r = await load({ fromTimelines: [file] }, dir);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/the load run measured http:\/\/127\.0\.0\.1:9 at 600\/s \(another base URL\): nothing written/);
    expect(existsSync(join(dir, 'load.json'))).toBe(false);
    expect(readFileSync(join(dir, 'conformance.json'), 'utf8')).toBe(reportText);
  });

  test('verify-bundle: a load summary of another target is INVALID, of the report\'s target it holds', () => {
    const report = JSON.parse(reportText) as unknown;
    const own = { target: { baseUrl: reference.baseUrl, embeddedReference: false, faults: [] }, expectedRps: 600 };
    const embedded = { target: { baseUrl: 'http://127.0.0.1:1234', embeddedReference: true, faults: [] }, expectedRps: 200 };
    expect(loadSummaryTargetCheck(report, own).ok).toBe(true);
    expect(loadSummaryTargetCheck(report, embedded)).toEqual({ ok: false, what: expect.stringMatching(/the report is about http:\/\/127\.0\.0\.1:\d+ at 600\/s, the load run measured the embedded reference\)$/) });
    expect(loadSummaryTargetCheck(report, { ...own, expectedRps: 200 }).ok).toBe(false);
    const files = new Map([['conformance.json', Buffer.from(reportText)], ['load-summary.json', Buffer.from(JSON.stringify(embedded))]]);
    expect(verifyBundle(files).find((c) => c.what.startsWith('the load summary measured'))).toMatchObject({ ok: false });
  });
});
