// Grants rate-limit tests their buckets in plan order: a test starts once every earlier test on the same target that
// it conflicts with (buckets.ts) has finished. Earlier means in an earlier file of the plan, or earlier in its file.
// Tests run in worker threads of this process and ask over a BroadcastChannel; vitest's reporter events say which
// tests each file holds (with the buckets they declared) and when a test is over, even one that never asked.
import { randomBytes } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';
import type { TestCase, TestModule } from 'vitest/node';
import { conflict, type BucketUses, type PlanMessage } from '../conformance/buckets.ts';

interface Entry {
  test: string;
  target: string;
  /** Position in the plan: file index, then declaration order. */
  order: [number, number];
  uses: BucketUses;
  finished: boolean;
}

export class BucketPlan {
  readonly channelName = `conformance-bucket-plan-${randomBytes(4).toString('hex')}`;
  private readonly channel = new BroadcastChannel(this.channelName);
  private files: string[] = [];
  private targetOf: (file: string) => string = () => '';
  private readonly collected = new Set<string>();
  private readonly entries = new Map<string, Entry>();
  private readonly finished = new Set<string>();
  private readonly waiting = new Map<string, string>();

  constructor() {
    this.channel.unref();
    this.channel.onmessage = (event) => this.receive((event as { data: PlanMessage }).data);
  }

  /** Starts a run whose planned tests live in `files`, in this order; `targetOf` names the target of a file. */
  begin(files: string[], targetOf: (file: string) => string): void {
    this.files = files;
    this.targetOf = targetOf;
    this.collected.clear();
    this.entries.clear();
    this.finished.clear();
    this.waiting.clear();
  }

  /** Reporter event: a file's tests and the buckets they declared are known. */
  onTestModuleCollected(module: TestModule): void {
    const index = this.files.indexOf(module.moduleId);
    if (index < 0) return;
    let position = 0;
    for (const test of module.children.allTests()) {
      const uses = test.meta().buckets;
      if (uses) this.entries.set(test.id, { test: test.id, target: this.targetOf(module.moduleId), order: [index, position++], uses, finished: this.finished.has(test.id) });
    }
    this.collected.add(module.moduleId);
    this.grantWhatCan();
  }

  /** Reporter event: the test is over (also when it was skipped before asking). */
  onTestCaseResult(test: TestCase): void {
    this.finish(test.id);
  }

  close(): void {
    this.channel.close();
  }

  private receive(message: PlanMessage): void {
    if (message.kind === 'acquire') {
      this.waiting.set(message.test, message.file);
      this.grantWhatCan();
    } else if (message.kind === 'release') this.finish(message.test);
  }

  private finish(test: string): void {
    this.finished.add(test);
    const entry = this.entries.get(test);
    if (entry) entry.finished = true;
    this.grantWhatCan();
  }

  private grantWhatCan(): void {
    for (const [test, file] of this.waiting) {
      if (!this.mayStart(test, file)) continue;
      this.waiting.delete(test);
      this.channel.postMessage({ kind: 'granted', test } satisfies PlanMessage);
    }
  }

  private mayStart(test: string, file: string): boolean {
    const index = this.files.indexOf(file);
    if (index < 0) return true; // not part of the plan
    const target = this.targetOf(file);
    // Tests of an earlier file that is not collected yet are unknown: wait for them.
    if (this.files.slice(0, index + 1).some((f) => this.targetOf(f) === target && !this.collected.has(f))) return false;
    const entry = this.entries.get(test);
    if (!entry) return true;
    for (const other of this.entries.values()) {
      if (other.finished || other.target !== target || !before(other.order, entry.order)) continue;
      if (conflict(other.uses, entry.uses)) return false;
    }
    return true;
  }
}

const before = (a: [number, number], b: [number, number]) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
