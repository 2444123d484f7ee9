// A vitest pool whose test threads outlive a test run: the next run of the same vitest session (or of another session
// of this process) gets a thread with its modules still loaded.
//
// Why: vitest ends its threads with each run, and a new thread loads vitest's runtime, the harness, the schema
// validators and the official client's 420 modules before its first test — about a second of CPU per thread. Runs that
// follow each other pay it again and again: the fault proof's waves (24 runs of up to four threads each) and the
// mutation run (one run per mutant). Which runs may take a kept thread is the caller's to say (`reusable`): a mutant
// activated before the modules load (Stryker's static mutants) must start fresh. A thread is recycled after
// `recycleAfterRuns`, so whatever a run left behind (an open server, a timer) cannot pile up.
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PoolOptions, PoolWorker } from 'vitest/node';

const ENTRY = fileURLToPath(new URL('./keep-alive-worker.mjs', import.meta.url));

type Message = { __vitest_worker_request__?: boolean; type?: string };
type Listener = (arg: unknown) => void;

export interface KeepAlivePoolOptions {
  /** The pool's name, as vitest's `pool` setting names it. */
  name: string;
  /** Whether this run's threads may come from, and go back to, the kept ones. */
  reusable: (options: PoolOptions) => boolean;
  recycleAfterRuns: number;
}

export interface KeepAlivePool {
  name: string;
  createPoolWorker: (options: PoolOptions) => PoolWorker;
  /** Ends the kept threads (they are unref'd, so they never hold the process open; this frees them sooner). */
  close: () => Promise<void>;
}

interface Kept {
  thread: Worker;
  runs: number;
  /** Its 'exit' listener while kept: a thread that ended on its own (it crashed between runs) leaves the list. */
  forget: () => void;
}

/** Threads between two runs, with the number of runs each has served, by pool name: module state, so that a pool made
 * again (a config read again) still finds the threads of the one before. */
const keptByPool = new Map<string, Kept[]>();

export function keepAlivePool({ name, reusable, recycleAfterRuns }: KeepAlivePoolOptions): KeepAlivePool {
  const kept = keptByPool.get(name) ?? keptByPool.set(name, []).get(name)!;

  class KeepAliveThreadWorker implements PoolWorker {
    readonly name = name;
    private thread: Worker | undefined;
    private runs = 0;
    private keep = false;
    /** What the pool runner listens to: the thread's events, and the `stopped` this worker answers for a kept thread. */
    private readonly listeners: { event: string; callback: Listener }[] = [];
    private readonly answers = new EventEmitter();

    constructor(private readonly options: PoolOptions) {}

    async start(): Promise<void> {
      this.keep = reusable(this.options);
      const reused = this.keep ? kept.pop() : undefined;
      if (reused && reused.runs < recycleAfterRuns) {
        ({ thread: this.thread, runs: this.runs } = reused);
        this.thread.ref();
        this.thread.off('exit', reused.forget);
      } else {
        if (reused) void reused.thread.terminate();
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
      // unref: a kept thread must not keep the process alive once it is done
      thread.unref();
      const entry: Kept = {
        thread,
        runs: this.runs,
        forget: () => {
          const at = kept.indexOf(entry);
          if (at !== -1) kept.splice(at, 1);
        },
      };
      thread.once('exit', entry.forget);
      kept.push(entry);
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
      if (!this.thread) throw new Error(`${name}: no test thread (used before start or after stop)`);
      return this.thread;
    }
  }

  return {
    name,
    createPoolWorker: (options) => new KeepAliveThreadWorker(options),
    close: async () => {
      await Promise.all(kept.splice(0).map((k) => k.thread.terminate()));
    },
  };
}
