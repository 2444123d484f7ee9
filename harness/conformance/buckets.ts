// Tests share the target's token buckets. Rate-limit tests declare how they use them (`conformance(…, { buckets })`);
// every other test reads them all. The runner's bucket plan (harness/runner/bucket-plan.ts) lets a test start once
// every earlier test it conflicts with has finished, so tests on independent buckets run at the same time, across
// files and worker threads, and the functional tests never meet a bucket a rate-limit test exhausts or measures.
import { BroadcastChannel } from 'node:worker_threads';
import { inject } from 'vitest';

export type Environment = 'primary' | 'secondary';
export type Category = 'trigger' | 'configuration' | 'global';
/** A token bucket of the target: the environment of the key and the rate-limit category. */
export type Bucket = `${Environment} ${Category}`;

/**
 * How a test uses a bucket:
 * - `reads`: sends a few requests and needs tokens left;
 * - `drains`: exhausts it; other drains may share the exhausted bucket;
 * - `measures`: needs it to itself (counts tokens, or waits for a refill or a Retry-After).
 */
export type BucketUse = 'reads' | 'drains' | 'measures';
export type BucketUses = Partial<Record<Bucket, BucketUse>>;

/** What a test that declares nothing does: it draws on every bucket and needs tokens left. */
export const READS_EVERY_BUCKET: BucketUses = {
  'primary trigger': 'reads',
  'primary configuration': 'reads',
  'primary global': 'reads',
  'secondary trigger': 'reads',
  'secondary configuration': 'reads',
  'secondary global': 'reads',
};

/** Whether two tests may not hold their buckets at the same time. */
export function conflict(a: BucketUses, b: BucketUses): boolean {
  return (Object.keys(a) as Bucket[]).some((bucket) => {
    const [x, y] = [a[bucket], b[bucket]];
    return x !== undefined && y !== undefined && !(x === y && x !== 'measures');
  });
}

/** Messages between the tests (worker threads) and the bucket plan (the runner's thread). */
export type PlanMessage = { kind: 'acquire'; test: string; file: string } | { kind: 'release'; test: string } | { kind: 'granted'; test: string };

declare module 'vitest' {
  export interface ProvidedContext {
    /** The BroadcastChannel name of the session's bucket plan. */
    bucketPlan?: string;
  }
}

let channel: BroadcastChannel | undefined;
const grants = new Map<string, () => void>();

function planChannel(name: string): BroadcastChannel {
  if (channel) return channel;
  channel = new BroadcastChannel(name);
  channel.unref();
  channel.onmessage = (event) => {
    const message = (event as { data: PlanMessage }).data;
    if (message.kind === 'granted') grants.get(message.test)?.();
  };
  return channel;
}

/** The buckets one test holds: acquired before its requests, released after its cleanup. */
export class BucketLease {
  /** Without a plan (suites run outside the runner) every test holds its buckets at once. */
  private readonly plan = inject('bucketPlan');

  constructor(
    private readonly test: string,
    private readonly file: string,
    private readonly uses: BucketUses | undefined,
  ) {}

  /** Resolves when the plan lets the test use its buckets. */
  acquire(): Promise<void> {
    const plan = this.plan;
    if (!this.uses || !plan) return Promise.resolve();
    return new Promise((resolve) => {
      grants.set(this.test, () => {
        grants.delete(this.test);
        resolve();
      });
      planChannel(plan).postMessage({ kind: 'acquire', test: this.test, file: this.file } satisfies PlanMessage);
    });
  }

  /** Tells the plan the test is done with its buckets (also when it never acquired them: skipped). */
  release(): void {
    if (this.uses && this.plan) planChannel(this.plan).postMessage({ kind: 'release', test: this.test } satisfies PlanMessage);
  }
}
