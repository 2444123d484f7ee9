// `conformance fuzz` exits 0 with nothing found, 1 with findings, 2 on usage errors or an unreachable target, and
// writes fuzz.json with the seed, the counts per operation and the findings (no API key anywhere).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.ts';
import { resolveSettings } from '../../config/resolve-settings.ts';
import { fuzzCommand } from '../../fuzz/fuzz-command.ts';

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
    expect(lines.join('\n')).toMatch(/unreachable \(pre-flight GET \/v1\/environments\).*connection refused/);
  });

  it.each([
    [['fuzz', '--budget', '5', '--time', '3'], /--budget or --time, not both/],
    [['fuzz', '--operation', 'create-workflows'], /--operation: unknown create-workflows; known: create-workflow/],
    [['fuzz', '--seed', '-1'], /--seed takes a whole number/],
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
});
