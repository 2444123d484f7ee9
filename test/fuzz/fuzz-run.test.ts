// Fuzz runs against the embedded reference: crashes only generated input reaches are found and shrunk to a minimal
// request by fast-check; the same seed sends the same requests; the clean reference gives no finding.
import { afterEach, describe, expect, it } from 'vitest';
import type { FaultName } from '../../reference/index.ts';
import { resolveSettings } from '../../config/resolve-settings.ts';
import type { Exchange } from '../../harness/http/exchange.ts';
import { closeTransport } from '../../harness/http/transport.ts';
import { startEmbeddedTarget, type EmbeddedTarget } from '../../harness/runner/embedded-target.ts';
import { toProfile } from '../../harness/runner/profile.ts';
import { runFuzz, type FuzzOptions, type FuzzResult } from '../../fuzz/run-fuzz.ts';

const started: EmbeddedTarget[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((t) => t.reference.close()));
  await closeTransport();
});

async function fuzz(faults: FaultName[], options: Partial<FuzzOptions> & { runPrefix?: string }): Promise<FuzzResult> {
  const embedded = await startEmbeddedTarget(faults);
  started.push(embedded);
  const profile = { ...toProfile(resolveSettings({ env: {} }), embedded), ...(options.runPrefix ? { runPrefix: options.runPrefix } : {}) };
  return runFuzz(profile, { seed: 1, budget: 100, operations: [], log: () => undefined, ...options });
}

describe('shrinking (fast-check’s own, one request per candidate)', () => {
  it('a crash on a non-string context value shrinks to a one-key context holding an empty object', async () => {
    const result = await fuzz(['context-value-object-crash'], { operations: ['update-subscriber-preferences'] });
    const crash = result.findings.find((f) => f.status === 500)!;
    expect(crash).toMatchObject({ rule: 'PREF-01', level: 'error', mode: 'valid' });
    const body = crash.request.body as { context: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(['context']);
    expect(Object.values(body.context)).toEqual([{}]);
    expect(crash.shrinks).toBeGreaterThan(0);
    expect(crash.reproducer).toContain('${CONFORMANCE_API_KEY}');
  });

  it('a crash on recipient data holding an array of objects shrinks to one recipient with one such field', async () => {
    const result = await fuzz(['recipient-data-array-crash'], { operations: ['trigger-event'] });
    const crash = result.findings.find((f) => f.status === 500)!;
    expect(crash).toMatchObject({ rule: 'TRIG-01', level: 'error' });
    const body = crash.request.body as { to: { subscriberId: string; data: Record<string, unknown> }[] };
    expect(Object.keys(body).sort()).toEqual(['name', 'to']);
    expect(body.to).toHaveLength(1);
    expect(Object.keys(body.to[0]!).sort()).toEqual(['data', 'subscriberId']);
    expect(Object.values(body.to[0]!.data)).toEqual([[{}]]);
  });
});

describe('requests from the official client\'s request models (CLIENT-04)', () => {
  it('a reference that refuses the nullable preferences blocks is found, shrunk to a body holding one null block', async () => {
    const result = await fuzz(['nullable-preferences-refused'], { operations: ['create-workflow'] });
    const refused = result.findings.filter((f) => f.rule === 'CLIENT-04');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]).toMatchObject({ mode: 'sdk', level: 'warning', status: 422 });
    const prefs = (refused[0]!.request.body as { preferences: Record<string, unknown> }).preferences;
    expect(Object.values(prefs)).toContain(null);
    expect(refused[0]!.reproducer).toContain('curl');
  });

  it('"" in subscriberIds, which binding leaves as sent, is found refused, and its message judged (CLIENT-03)', async () => {
    const result = await fuzz(['ts-empty-subscriber-id-refused'], { operations: ['delete-topic-subscriptions'] });
    const sdk = result.findings.filter((f) => f.mode === 'sdk');
    expect(sdk.map((f) => f.rule).sort()).toEqual(['CLIENT-03', 'CLIENT-04']);
    expect(sdk.every((f) => JSON.stringify(f.request.body) === '{"subscriberIds":[""]}')).toBe(true);
  });
});

describe('every other method on each path (ERR-04)', () => {
  it('a 405 without Allow is found once per path, naming the method sent; a crash on one is an error', async () => {
    const noAllow = await fuzz(['method-not-allowed-no-allow'], { budget: 1, operations: ['trigger-event', 'list-environments'] });
    expect(noAllow.findings.map((f) => `${f.rule} ${f.operation} ${f.mode} ${f.request.method}`)).toEqual(['ERR-04 list-environments methods PUT', 'ERR-04 trigger-event methods GET']);
    expect(noAllow.operations.map((o) => o.methods?.requests)).toEqual([3, 4]);
    const crash = await fuzz(['method-not-allowed-500'], { budget: 1, operations: ['list-environments'] });
    expect(crash.findings.map((f) => `${f.rule} ${f.level}`)).toEqual(['FUZZ-5XX error', 'ERR-04 warning']);
  });
});

describe('reproducibility', () => {
  const operations = ['create-workflow', 'layout-preview', 'update-subscriber-preferences', 'trigger-event'];
  // server-made ids differ between two references; everything the fuzzer chose must not
  const normalize = (e: Exchange) => `${e.method} ${new URL(e.url).pathname}${new URL(e.url).search} ${e.requestBody ?? ''}`.replace(/[0-9a-f]{24}/g, '<id>').replace(/_wf_[0-9a-f]{10}/g, '_wf_<slug>');
  const sequence = async (seed: number) => {
    const sent: string[] = [];
    await fuzz([], { seed, budget: 15, operations, runPrefix: 'cft-repro', onExchange: (e) => sent.push(normalize(e)) });
    return sent;
  };

  it('the same seed sends the same requests, in the same order; another seed sends others', async () => {
    const first = await sequence(11);
    const again = await sequence(11);
    expect(first.length).toBeGreaterThan(60);
    expect(again).toEqual(first);
    expect(await sequence(12)).not.toEqual(first);
  });

  it('an operation fuzzed alone gets exactly the requests it gets in a larger run', async () => {
    const alone: string[] = [];
    const together: string[] = [];
    const onlyLayouts = (into: string[]) => (e: Exchange) => void (e.url.includes('/preview') && into.push(normalize(e)));
    await fuzz([], { seed: 3, budget: 15, operations: ['layout-preview'], runPrefix: 'cft-repro', onExchange: onlyLayouts(alone) });
    await fuzz([], { seed: 3, budget: 15, operations, runPrefix: 'cft-repro', onExchange: onlyLayouts(together) });
    expect(together).toEqual(alone);
  });
});

describe('the clean reference', () => {
  it('gives no finding with the default seed and budget, and everything created is removed', async () => {
    const result = await fuzz([], {});
    expect(result.findings.map((f) => `${f.rule} ${f.operation}: ${f.message}`)).toEqual([]);
    expect(result.leaks).toEqual([]);
    expect(Object.values(started.at(-1)!.reference.inventory()).flat()).toEqual([]);
    expect(result.operations.every((o) => !o.skipped && o.valid && o.valid.requests > 0)).toBe(true);
  });
});

describe('--time is a budget for the whole command', () => {
  it('a budget already spent by the start-up generates nothing more (the deadline counts from the command\'s start)', async () => {
    const result = await fuzz([], { operations: ['create-workflow', 'trigger-event'], timeS: 1, deadlineMs: Date.now() - 1 });
    const generated = result.operations.flatMap((o) => [o.valid, o.invalid, o.sdk]).map((m) => m?.cases ?? 0);
    expect(generated).toEqual([0, 0, 0, 0, 0, 0]);
  });
});
