// A deployment without a regional endpoint declares it: VER-02 is then not applicable, never not verified or passed.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../config/resolve-settings.ts';
import { assessCertification } from '../../certify/certification.ts';
import { runCli } from '../hostile/run-cli.ts';

describe('declaring no regional endpoint', () => {
  it('makes VER-02 not applicable with the declaration as its reason, and the certification says it was declared', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cft-regional-'));
    const result = await runCli(['run', '--rules', 'VER-02', '--report-dir', dir], { CONFORMANCE_FEATURE_REGIONAL_ENDPOINT: 'false' });
    expect(result.stdout).toContain('no regional endpoint (VER-02 not applicable)');
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
    const ver02 = report.requirements.find((r: { id: string }) => r.id === 'VER-02');
    expect(ver02).toMatchObject({ verdict: 'not-applicable', reason: expect.stringContaining('declares no regional endpoint') });
    expect(ver02.tests.length, 'every VER-02 test said why it did not run').toBeGreaterThan(0);
    expect(ver02.tests.every((t: { status: string }) => t.status === 'not-applicable')).toBe(true);
    expect(report.target.declared.regionalEndpoint).toBe(false);
    expect(report.certification.declared).toEqual(['declared: no regional endpoint (VER-02 not applicable)']);
    expect(report.summary.unverifiedMust.map((r: { id: string }) => r.id)).not.toContain('VER-02');
  });

  it('comes from the flag, the environment or the config file, and contradicts a regional address', () => {
    expect(resolveSettings({ flags: { 'features.regionalEndpoint': false } }).features.regionalEndpoint).toBe(false);
    expect(resolveSettings({ env: { CONFORMANCE_FEATURE_REGIONAL_ENDPOINT: 'no' } }).features.regionalEndpoint).toBe(false);
    expect(resolveSettings({}).features.regionalEndpoint).toBe(true);
    expect(() => resolveSettings({ flags: { 'features.regionalEndpoint': false, 'target.regionalBaseUrl': 'https://eu.example.test', 'target.baseUrl': 'https://example.test', 'target.apiKey': 'k' } })).toThrow(
      /features\.regionalEndpoint: declared off \(--no-regional-endpoint\), yet a regional base address is given/,
    );
  });

  it('does not deny the certification grade by itself', () => {
    const report = { target: { baseUrl: 'https://x.test', embeddedReference: false, faults: [], declared: { idempotency: true, rateLimiting: true, triggerRps: 600, regionalEndpoint: false } }, suite: { name: 's', version: '0.1.0', commit: 'c', dirty: false, releaseTag: 'v0.1.0' }, leaks: [], summary: { interrupted: false } } as never;
    const certification = assessCertification(report, {});
    expect(certification.declared).toEqual(['declared: no regional endpoint (VER-02 not applicable)']);
    expect(certification.reasons.map((r) => r.code)).not.toContain('declared');
  });
});
