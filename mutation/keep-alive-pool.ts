// A vitest pool for the mutation run only: one test thread that is kept from one runtime mutant's run to the next.
//
// Why: Stryker's vitest runner starts a vitest run per mutant, and vitest ends its threads with the run, so every mutant
// paid a new thread and a fresh module graph (the official client's 420 modules, undici, ajv, the suites' fixtures and
// the reference) before its first test: about a second of CPU, more than the tests of most mutants. A runtime mutant
// needs none of that — Stryker switches it through a global the setup file sets before each file — so its run reuses
// the thread of the one before. What must start fresh still does: the initial test run (it measures coverage), every
// static mutant (Stryker activates it before the modules load), and a thread after `RECYCLE_AFTER_RUNS` runs (so
// whatever a mutant left behind — an open server, a timer — cannot pile up). Each suite file still starts its own
// reference (mutation/reference-in-worker.ts), so no state of one run's reference reaches the next.
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PoolOptions, PoolWorker } from 'vitest/node';

export const KEEP_ALIVE_POOL = 'mutation-keep-alive-threads';
const ENTRY = fileURLToPath(new URL('./keep-alive-worker.mjs', import.meta.url));
const RECYCLE_AFTER_RUNS = 100;

type Message = { __vitest_worker_request__?: boolean; type?: string };
type Listener = (arg: unknown) => void;

/** The thread between two runs, with the number of runs it has served. */
let kept: { thread: Worker; runs: number } | undefined;

declare module 'vitest' {
  // What Stryker's vitest runner provides before each run (@stryker-mutator/vitest-runner, vitest-test-runner.js).
  export interface ProvidedContext {
    mode?: 'dry-run' | 'mutant';
    mutantActivation?: 'static' | 'runtime';
  }
}

/** True for the runs whose modules a later run may reuse: a runtime mutant's (Stryker's provided context says which). */
function reusable(options: PoolOptions): boolean {
  const { mode, mutantActivation } = options.project.getProvidedContext();
  return mode === 'mutant' && mutantActivation === 'runtime';
}

class KeepAliveThreadWorker implements PoolWorker {
  readonly name = KEEP_ALIVE_POOL;
  private thread: Worker | undefined;
  private runs = 0;
  private keep = false;
  /** What the pool runner listens to: the thread's events, and the `stopped` this worker answers for a kept thread. */
  private readonly listeners: { event: string; callback: Listener }[] = [];
  private readonly answers = new EventEmitter();

  constructor(private readonly options: PoolOptions) {}

  async start(): Promise<void> {
    this.keep = reusable(this.options);
    if (this.keep && kept && kept.runs < RECYCLE_AFTER_RUNS) {
      ({ thread: this.thread, runs: this.runs } = kept);
      kept = undefined;
      this.thread.ref();
      this.thread.off('exit', forgetKept);
    } else {
      if (kept) void kept.thread.terminate();
      kept = undefined;
      this.thread = new Worker(ENTRY, { env: this.options.env, execArgv: this.options.execArgv, stdout: true, stderr: true });
      this.runs = 0;
    }
    this.runs++;
    const logger = this.options.project.vitest.logger;
    this.thread.stdout.pipe(logger.outputStream, { end: false });
    this.thread.stderr.pipe(logger.errorStream, { end: false });
  }

  async stop(): Promise<void> {
    const thread = this.requireThread();
    thread.stdout.unpipe();
    thread.stderr.unpipe();
    for (const { event, callback } of this.listeners.splice(0)) thread.off(event, callback);
    this.thread = undefined;
    if (!this.keep) return void (await thread.terminate());
    // unref: a kept thread must not keep Stryker's test-runner process alive once it is told to exit
    thread.unref();
    thread.once('exit', forgetKept);
    kept = { thread, runs: this.runs };
  }

  send(message: unknown): void {
    // A kept thread never hears `stop` (vitest's worker would tear itself down): the answer comes from here.
    if (this.keep && (message as Message).__vitest_worker_request__ && (message as Message).type === 'stop') {
      setImmediate(() => this.answers.emit('message', { type: 'stopped', __vitest_worker_response__: true }));
      return;
    }
    this.requireThread().postMessage(message);
  }

  on(event: string, callback: Listener): void {
    this.requireThread().on(event, callback);
    this.answers.on(event, callback);
    this.listeners.push({ event, callback });
  }

  off(event: string, callback: Listener): void {
    this.thread?.off(event, callback);
    this.answers.off(event, callback);
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  private requireThread(): Worker {
    if (!this.thread) throw new Error('mutation keep-alive pool: no test thread (used before start or after stop)');
    return this.thread;
  }
}

/** A kept thread that ended on its own (it crashed between runs) is not handed to the next run. */
function forgetKept(): void {
  kept = undefined;
}

/** The pool, as vitest's `poolRunner` takes it. */
export const keepAlivePool = {
  name: KEEP_ALIVE_POOL,
  createPoolWorker: (options: PoolOptions): PoolWorker => new KeepAliveThreadWorker(options),
};
