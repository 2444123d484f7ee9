// Grants tests their buckets in plan order: a test starts once every earlier test on the same target that it
// conflicts with (buckets.ts) has finished. Earlier means in an earlier file of the plan, or earlier in its file; vitest
// starts the files in plan order, so an earlier file is always running or done. Tests run in worker threads of this
// process and ask over a BroadcastChannel; vitest's reporter events say which tests each file holds (with the
// buckets they use) and when a test is over, even one that never asked.
import { randomBytes } from 'node:crypto';
import { BroadcastChannel } from 'node:worker_threads';
import type { TestCase, TestModule } from 'vitest/node';
import { conflict, type BucketUses, type PlanMessage } from '../conformance/buckets.ts';

interface Entry {
  file: string;
  target: string;
  /** Position in the plan: file index, then declaration order. */
  order: [number, number];
  uses: BucketUses;
  finished: boolean;
  /** Earlier conflicting tests not finished yet. */
  waitingFor: number;
  /** Later conflicting tests, which wait for this one. */
  blocks: Entry[];
}

export class BucketPlan {
  readonly channelName = `conformance-bucket-plan-${randomBytes(4).toString('hex')}`;
  private readonly channel = new BroadcastChannel(this.channelName);
  private files = new Map<string, number>();
  private targetOf: (file: string) => string = () => '';
  private readonly collected = new Set<string>();
  private readonly entries = new Map<string, Entry>();
  private readonly finished = new Set<string>();
  private readonly waiting = new Map<string, string>();
  private readonly lastFinished = new Map<string, number>();
  /** When the first test of the run was let start (performance.now()). */
  firstGrantAt: number | undefined;

  constructor() {
    this.channel.unref();
    this.channel.onmessage = (event) => this.receive((event as { data: PlanMessage }).data);
  }

  /** Starts a run of `files`, in this order; `targetOf` names the target of a file. */
  begin(files: string[], targetOf: (file: string) => string): void {
    this.files = new Map(files.map((file, index) => [file, index]));
    this.targetOf = targetOf;
    for (const state of [this.collected, this.entries, this.finished, this.waiting, this.lastFinished]) state.clear();
    this.firstGrantAt = undefined;
  }

  /** When the last test of `file` finished (performance.now()), if any did. */
  finishedAt(file: string): number | undefined {
    return this.lastFinished.get(file);
  }

  /** Reporter event: a file's tests and the buckets they use are known. */
  onTestModuleCollected(module: TestModule): void {
    const index = this.files.get(module.moduleId);
    if (index === undefined) return;
    let position = 0;
    for (const test of module.children.allTests()) {
      const uses = test.meta().buckets;
      if (!uses) continue;
      const entry: Entry = { file: module.moduleId, target: this.targetOf(module.moduleId), order: [index, position++], uses, finished: this.finished.has(test.id), waitingFor: 0, blocks: [] };
      for (const other of this.entries.values()) {
        if (other.target !== entry.target || !conflict(other.uses, entry.uses)) continue;
        const [first, second] = before(other.order, entry.order) ? [other, entry] : [entry, other];
        first.blocks.push(second);
        if (!first.finished) second.waitingFor++;
      }
      this.entries.set(test.id, entry);
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
    if (this.finished.has(test)) return;
    this.finished.add(test);
    const entry = this.entries.get(test);
    if (entry) {
      entry.finished = true;
      for (const later of entry.blocks) later.waitingFor--;
      this.lastFinished.set(entry.file, performance.now());
    }
    this.grantWhatCan();
  }

  private grantWhatCan(): void {
    for (const [test, file] of this.waiting) {
      if (!this.mayStart(test, file)) continue;
      this.waiting.delete(test);
      this.firstGrantAt ??= performance.now();
      this.channel.postMessage({ kind: 'granted', test } satisfies PlanMessage);
    }
  }

  private mayStart(test: string, file: string): boolean {
    const index = this.files.get(file);
    if (index === undefined) return true; // not part of the plan
    // Tests of an earlier file on the same target that is not collected yet are unknown: wait for them.
    const target = this.targetOf(file);
    for (const [other, otherIndex] of this.files) {
      if (otherIndex <= index && !this.collected.has(other) && this.targetOf(other) === target) return false;
    }
    return (this.entries.get(test)?.waitingFor ?? 0) === 0;
  }
}

const before = (a: [number, number], b: [number, number]) => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
