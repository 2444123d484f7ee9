// `conformance diff` between two embedded references: none between two clean ones; a changed default is named
// by its path; the command exits 0 / 1 / 2 and writes diff.json.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { diffCommand, summarize } from '../../diff/diff-command.ts';
import { diffEmbedded } from '../../diff/diff-proof.ts';
import { resolveSettings } from '../../config/resolve-settings.ts';
import { closeTransport } from '../../harness/http/transport.ts';

const settings = resolveSettings({ env: {} });
const running: RunningReference[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
  await closeTransport();
});

describe('conformance diff between embedded references', () => {
  it('two clean references answer the sequence alike, every operation sent to both', async () => {
    const result = await diffEmbedded(settings, []);
    expect(result.differences).toEqual([]);
    expect(result.operations.map((o) => o.operation)).toHaveLength(8);
    expect(result.operations.every((o) => /^2\d\d$/.test(o.reference) && o.candidate === o.reference)).toBe(true);
    expect(result.leaks).toEqual([]);
  });

  it('a changed default (severity) is named by its path, and nothing else differs', async () => {
    const result = await diffEmbedded(settings, ['severity-default-high']);
    expect(result.differences).toEqual([{ operation: 'create-workflow', path: '/severity', reference: 'none', candidate: 'high' }]);
  });

  it('the command writes diff.json and exits 1 with a difference, 0 without', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cft-diff-'));
    const lines: string[] = [];
    for (const faults of [['severity-default-high'], []] as const) {
      const candidate = await startReference({ faults: [...faults] });
      running.push(candidate);
      const candidateSettings = resolveSettings({ env: {}, flags: { 'target.baseUrl': candidate.baseUrl, 'target.apiKey': candidate.apiKeys.dev } });
      const outcome = await diffCommand({ candidate: candidateSettings, reportDir: dir }, (l) => lines.push(l));
      expect(outcome.exitCode).toBe(faults.length > 0 ? 1 : 0);
      const report = JSON.parse(readFileSync(join(dir, 'diff.json'), 'utf8'));
      expect(report.format).toBe('notification-api-conformance/diff');
      expect(report.differences).toHaveLength(faults.length > 0 ? 1 : 0);
    }
    expect(lines).toContain('DIFF create-workflow /severity: reference "none", candidate "high"');
    expect(lines).toContain('No differences in the answers: 8 of the 8 operations compared (one request each, the same to both sides, with bodies that leave defaults to the target).');
    expect(lines).toContain('diff compares answers to valid requests, not rules: a target that breaks rules can answer them as the reference does; `conformance run` judges the rules.');
    expect(lines).not.toContain('No differences.');
    const written = `${lines.join('\n')}\n${readFileSync(join(dir, 'diff.json'), 'utf8')}`;
    for (const r of running) for (const key of Object.values(r.apiKeys)) expect(written).not.toContain(key);
  });

  it('an unreachable candidate exits 2 with a message naming it', async () => {
    const candidateSettings = resolveSettings({ env: {}, flags: { 'target.baseUrl': 'http://127.0.0.1:9', 'target.apiKey': 'k' } });
    const lines: string[] = [];
    const outcome = await diffCommand({ candidate: candidateSettings, reportDir: mkdtempSync(join(tmpdir(), 'cft-diff-')) }, (l) => lines.push(l));
    expect(outcome.exitCode).toBe(2);
    expect(lines.join('\n')).toMatch(/the candidate is unreachable .*connection refused/);
  });

  it('says what it could not compare: an operation one side or both could not be sent counts as not compared, never as alike', () => {
    const op = (operation: string, reference: string, candidate: string, differences = 0) => ({ operation, reference, candidate, differences });
    const both = summarize({ operations: [op('create-workflow', '201', '201'), op('layout-preview', 'not sent: no layout', 'not sent: no layout')], differences: [], leaks: [] });
    expect(both.lines[0]).toBe('No differences in the answers: 1 of the 2 operations compared (one request each, the same to both sides, with bodies that leave defaults to the target).');
    expect(both.lines[1]).toBe('Not compared: layout-preview (reference: not sent: no layout; candidate: not sent: no layout)');
    const none = summarize({ operations: [op('layout-preview', 'not sent: x', 'not sent: x')], differences: [], leaks: [] });
    expect(none).toMatchObject({ compared: 0, lines: expect.arrayContaining(['Nothing compared: no operation was answered by both sides.']) });
  });
});
