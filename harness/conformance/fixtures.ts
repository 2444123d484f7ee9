// Per-test fixtures: the target profile, a recording client, run-prefixed ids and the cleanup stack.
import { inject, test as base } from 'vitest';
import { setRunPrefix } from '../../fixtures/builders/index.ts';
import { Provisioner } from '../../fixtures/provision.ts';
import { ApiClient } from '../http/api-client.ts';
import type { TargetProfile } from '../target-profile.ts';
import { BucketLease } from './buckets.ts';
import { Cleanup } from './cleanup.ts';
import { IdFactory } from './ids.ts';
import './meta.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    target: TargetProfile;
  }
}

export interface ConformanceFixtures {
  target: TargetProfile;
  api: ApiClient;
  ids: IdFactory;
  cleanup: Cleanup;
  provision: Provisioner;
  lease: BucketLease;
}

export const conformanceTest = base.extend<ConformanceFixtures>({
  // The fault proof runs several targets at once, one per suite file; otherwise every file has the run's target.
  target: async ({ task }, use) => {
    const target = inject('targetsByFile')?.[task.file.filepath] ?? inject('target');
    setRunPrefix(target.runPrefix);
    await use(target);
  },
  api: async ({ target }, use) => use(new ApiClient(target)),
  ids: async ({ target }, use) => use(new IdFactory(target.runPrefix)),
  lease: async ({ task }, use) => {
    const lease = new BucketLease(task.id, task.file.filepath, task.meta.buckets);
    await use(lease);
    lease.release();
  },
  // Depends on api, so its deletions run before the client is torn down; and on the lease, so the test holds its
  // buckets until its deletions are done.
  cleanup: async ({ api, task, lease }, use) => {
    void lease;
    const cleanup = new Cleanup(api);
    await use(cleanup);
    const leaks = await cleanup.runAll();
    if (leaks.length > 0 && task.meta.conformance) task.meta.conformance.leaks = leaks;
  },
  provision: async ({ api, cleanup, ids }, use) => use(new Provisioner(api, cleanup, ids)),
});
