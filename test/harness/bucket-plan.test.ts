import { readdirSync } from 'node:fs';
import { BroadcastChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import { conflict, type BucketUses, type PlanMessage } from '../../harness/conformance/buckets.ts';
import { BucketPlan } from '../../harness/runner/bucket-plan.ts';
import { isRateLimitSuite, RATE_LIMIT_PHASES, rateLimitPhases } from '../../harness/runner/rate-limit-phases.ts';

describe('bucket uses', () => {
  it('let reads share a bucket with reads and drains with drains, never a measure', () => {
    expect(conflict({ 'primary trigger': 'reads' }, { 'primary trigger': 'reads' })).toBe(false);
    expect(conflict({ 'primary trigger': 'drains' }, { 'primary trigger': 'drains' })).toBe(false);
    expect(conflict({ 'primary trigger': 'reads' }, { 'primary trigger': 'drains' })).toBe(true);
    expect(conflict({ 'primary trigger': 'measures' }, { 'primary trigger': 'measures' })).toBe(true);
    expect(conflict({ 'primary trigger': 'measures' }, { 'secondary trigger': 'measures', 'primary configuration': 'reads' })).toBe(false);
  });
});

describe('the bucket plan', () => {
  let plan: BucketPlan | undefined;
  let client: BroadcastChannel | undefined;
  afterEach(() => {
    plan?.close();
    client?.close();
  });

  const moduleOf = (moduleId: string, tests: [string, BucketUses | undefined][]) =>
    ({ moduleId, children: { allTests: () => tests.map(([id, buckets]) => ({ id, meta: () => (buckets ? { buckets } : {}) })) } }) as unknown as TestModule;
  const finished = (id: string) => ({ id }) as Parameters<BucketPlan['onTestCaseResult']>[0];

  function start(files: string[]) {
    plan = new BucketPlan();
    plan.begin(files, () => 'reference');
    client = new BroadcastChannel(plan.channelName);
    const granted: string[] = [];
    client.onmessage = (event) => {
      const message = (event as { data: PlanMessage }).data;
      if (message.kind === 'granted') granted.push(message.test);
    };
    const ask = (test: string, file: string) => client!.postMessage({ kind: 'acquire', test, file } satisfies PlanMessage);
    return { plan, granted, ask };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('starts a test once every earlier conflicting test of the plan is over, and independent ones at once', async () => {
    const { plan, granted, ask } = start(['/a.test.ts', '/b.test.ts']);
    ask('b1', '/b.test.ts');
    await settle();
    expect(granted, 'nothing is granted before the earlier file is known').toEqual([]);

    plan.onTestModuleCollected(moduleOf('/a.test.ts', [['a1', { 'primary trigger': 'measures' }], ['a2', { 'primary trigger': 'drains' }]]));
    plan.onTestModuleCollected(moduleOf('/b.test.ts', [['b1', { 'primary configuration': 'measures' }], ['b2', { 'primary trigger': 'drains' }]]));
    ask('a1', '/a.test.ts');
    await vi.waitFor(() => expect(granted.sort()).toEqual(['a1', 'b1']));

    client!.postMessage({ kind: 'release', test: 'b1' } satisfies PlanMessage);
    ask('b2', '/b.test.ts');
    await settle();
    expect(granted, 'b2 drains the bucket a1 measures').not.toContain('b2');
    plan.onTestCaseResult(finished('a1'));
    await settle();
    expect(granted, 'a2 is earlier and not over, and a drain may share the bucket with a drain').toContain('b2');
  });

  it('lets a test of a file outside the plan start at once', async () => {
    const { granted, ask } = start(['/a.test.ts']);
    ask('x1', '/functional.test.ts');
    await vi.waitFor(() => expect(granted).toEqual(['x1']));
  });
});

describe('the rate-limit phases', () => {
  it('name every rate-limit suite file', () => {
    const files = readdirSync(new URL('../../suites/rate-limits/', import.meta.url)).filter((f) => f.endsWith('.test.ts'));
    const named: string[] = [...RATE_LIMIT_PHASES.beforeFunctional, ...RATE_LIMIT_PHASES.afterFunctional];
    expect(files.map((f) => f.replace(/\.test\.ts$/, '')).sort()).toEqual(named.sort());
  });

  it('know a rate-limit suite by its absolute or relative path', () => {
    expect(['/repo/suites/rate-limits/headers.test.ts', 'suites/rate-limits/headers.test.ts', 'suites/trigger/recipients.test.ts'].map(isRateLimitSuite)).toEqual([true, true, false]);
  });

  it('keep the plan order and leave functional suites out', () => {
    const specs = ['suites/rate-limits/token-cost.test.ts', 'suites/trigger/recipients.test.ts', 'suites/rate-limits/replay-token-cost.test.ts', 'suites/rate-limits/bulk-subscribers-rate.test.ts'].map(
      (f) => ({ moduleId: `/repo/${f}` }),
    );
    const phases = rateLimitPhases(specs);
    expect(phases.beforeFunctional.map((s) => s.moduleId)).toEqual(['/repo/suites/rate-limits/replay-token-cost.test.ts', '/repo/suites/rate-limits/token-cost.test.ts']);
    expect(phases.afterFunctional.map((s) => s.moduleId)).toEqual(['/repo/suites/rate-limits/bulk-subscribers-rate.test.ts']);
  });
});
