import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/config-error.ts';
import { resolveSettings } from '../../config/resolve-settings.ts';

const dir = mkdtempSync(join(tmpdir(), 'cft-config-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const configError = (fn: () => unknown): ConfigError => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('resolveSettings', () => {
  it('starts from defaults: embedded reference, both features on, reports/', () => {
    const s = resolveSettings({});
    expect(s.target.baseUrl).toBeUndefined();
    expect(s.features).toEqual({ idempotency: true, rateLimiting: true, regionalEndpoint: true });
    expect(s.run.reportDir).toBe('reports');
  });

  it('layers file < environment < flags', () => {
    const config = file('layers.yaml', 'target:\n  baseUrl: http://127.0.0.1:1\n  apiKey: from-file\ntimeouts:\n  requestMs: 1234\n');
    const s = resolveSettings({
      configFile: config,
      env: { CONFORMANCE_API_KEY: 'from-env', CONFORMANCE_REQUEST_TIMEOUT_MS: '2000' },
      flags: { 'target.apiKey': 'from-flag' },
    });
    expect(s.target.apiKey).toBe('from-flag');
    expect(s.timeouts.requestMs).toBe(2000);
    expect(s.target.baseUrl).toBe('http://127.0.0.1:1');
  });

  it('substitutes ${ENV} placeholders in the file and names a missing one', () => {
    const config = file('placeholders.yaml', 'target:\n  baseUrl: http://127.0.0.1:2\n  apiKey: ${SECRET_KEY}\n');
    expect(resolveSettings({ configFile: config, env: { SECRET_KEY: 'k' } }).target.apiKey).toBe('k');
    expect(configError(() => resolveSettings({ configFile: config, env: {} })).message).toContain('${SECRET_KEY} is not set');
  });

  it('reads JSON files and reads the file named by CONFORMANCE_CONFIG', () => {
    const config = file('c.json', JSON.stringify({ features: { idempotency: false } }));
    expect(resolveSettings({ env: { CONFORMANCE_CONFIG: config } }).features.idempotency).toBe(false);
  });

  it('names an unknown setting, a wrong type and an unreadable file', () => {
    expect(configError(() => resolveSettings({ configFile: file('typo.yaml', 'timeouts:\n  requestMS: 5\n') })).setting).toBe('timeouts.requestMS');
    expect(configError(() => resolveSettings({ configFile: file('type.yaml', 'timeouts:\n  requestMs: soon\n') })).setting).toBe('timeouts.requestMs');
    expect(configError(() => resolveSettings({ configFile: join(dir, 'absent.yaml') })).setting).toBe('--config');
    expect(configError(() => resolveSettings({ configFile: file('bad.yaml', 'target: [unclosed\n') })).message).toContain('not valid YAML');
  });

  it('takes the suite worker count from CONFORMANCE_WORKERS (one per core, 3 to 4, by default; 1 to 16)', () => {
    expect(resolveSettings({}).run.workers).toBeGreaterThanOrEqual(3);
    expect(resolveSettings({}).run.workers).toBeLessThanOrEqual(4);
    expect(resolveSettings({ env: { CONFORMANCE_WORKERS: '2' } }).run.workers).toBe(2);
    expect(configError(() => resolveSettings({ env: { CONFORMANCE_WORKERS: '0' } })).setting).toBe('run.workers');
  });

  it('requires a key with a target, rejects keys without one, faults with one, and unknown rules', () => {
    expect(configError(() => resolveSettings({ flags: { 'target.baseUrl': 'http://127.0.0.1:3' } })).setting).toBe('target.apiKey');
    expect(configError(() => resolveSettings({ flags: { 'target.apiKey': 'k' } })).setting).toBe('target.baseUrl');
    expect(
      configError(() => resolveSettings({ flags: { 'target.baseUrl': 'http://127.0.0.1:3', 'target.apiKey': 'k', 'reference.faults': ['x'] } })).setting,
    ).toBe('reference.faults');
    expect(configError(() => resolveSettings({ flags: { 'run.rules': ['AUTH-01', 'NOPE-99'] } })).message).toContain('NOPE-99');
  });

  it('rejects a non-URL target and a non-boolean feature variable', () => {
    expect(configError(() => resolveSettings({ flags: { 'target.baseUrl': 'ftp://x', 'target.apiKey': 'k' } })).setting).toBe('target.baseUrl');
    expect(configError(() => resolveSettings({ env: { CONFORMANCE_FEATURE_IDEMPOTENCY: 'maybe' } })).setting).toBe('CONFORMANCE_FEATURE_IDEMPOTENCY');
  });

  it('reads bridge.acceptableUrls and names one that is not an https URL', () => {
    const ok = resolveSettings({ configFile: file('bridge.yaml', 'bridge:\n  acceptableUrls: [https://203.0.113.7/api/novu]\n') });
    expect(ok.bridge.acceptableUrls).toEqual(['https://203.0.113.7/api/novu']);
    const http = configError(() => resolveSettings({ configFile: file('bridge-http.yaml', 'bridge:\n  acceptableUrls: [http://bridge.example.com]\n') }));
    expect([http.setting, http.message]).toEqual(['bridge.acceptableUrls', expect.stringContaining('"http://bridge.example.com" is not an https URL')]);
    expect(configError(() => resolveSettings({ configFile: file('bridge-garbage.yaml', 'bridge:\n  acceptableUrls: [not a url]\n') })).message).toContain('is not a URL');
    expect(configError(() => resolveSettings({ configFile: file('bridge-empty.yaml', 'bridge:\n  acceptableUrls: []\n') })).setting).toBe('bridge.acceptableUrls');
  });
});
