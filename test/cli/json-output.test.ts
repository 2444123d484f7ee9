// --json on rules, load and verify-bundle: one JSON document on stdout that a script can read, the text on stderr.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REQUIREMENTS } from '../../requirements/index.ts';
import { runCli } from '../hostile/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'cft-json-'));

describe.concurrent('--json', () => {
  it('rules --json (and --format json) prints the catalog; another format is a usage error', async () => {
    const [json, format, bad] = await Promise.all([runCli(['rules', '--json']), runCli(['rules', '--format', 'json']), runCli(['rules', '--format', 'xml'])]);
    const doc = JSON.parse(json.stdout) as { command: string; rules: { id: string; level: string; text: string }[] };
    expect(doc.command).toBe('rules');
    expect(doc.rules.map((r) => r.id)).toEqual(REQUIREMENTS.map((r) => r.id));
    expect(doc.rules[0]).toMatchObject({ id: 'AUTH-01', level: 'MUST', area: 'AUTH' });
    expect(format.stdout).toBe(json.stdout);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format takes text or json, got "xml"');
  });

  it('load --json prints the verdicts of load.json (its timelines stay in the file)', async () => {
    const reportDir = join(dir, 'load');
    const r = await runCli(['load', '--profile', 'short', '--scenario', 'bulk-cost', '--duration', '1', '--report-dir', reportDir, '--json']);
    const doc = JSON.parse(r.stdout) as Record<string, any>;
    expect(doc).toMatchObject({ command: 'load', exitCode: r.code, engine: 'node', loadReport: join(reportDir, 'load.json') });
    expect(doc.verdicts.map((v: { id: string }) => v.id)).toContain('RL-03');
    expect(doc.timelines).toBeUndefined();
    expect(r.stderr).toContain('Load report: ');
  });

  it('verify-bundle --json prints the status, each check and the signature facts; the bundle\'s claims are marked unverified', async () => {
    const reportDir = join(dir, 'bundle');
    const run = await runCli(['run', '--rules', 'AUTH-02', '--report-dir', reportDir, '--bundle']);
    expect(run.code, run.stderr).toBe(3);
    const r = await runCli(['verify-bundle', join(reportDir, 'conformance-bundle.tar.gz'), '--json']);
    const doc = JSON.parse(r.stdout) as Record<string, any>;
    expect(doc).toMatchObject({ command: 'verify-bundle', exitCode: r.code, status: 'not-certified', signature: { signed: false, verified: false }, claims: { verified: false, verdict: 'incomplete' } });
    expect(doc.checks.every((c: { ok: boolean }) => c.ok)).toBe(true);
    expect(r.stderr).toContain('NOT VERIFIED: the bundle is unsigned');
  });
});
