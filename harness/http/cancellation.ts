// A test cut off by its time limit must send nothing more: its body may still be waiting (a drain's next batch, a
// pause), and whatever it would send after the limit is traffic nobody judges. Each test body runs in a scope of its
// own (AsyncLocalStorage follows it through promises and timers), so cancelling it leaves the test's cleanup free.
import { AsyncLocalStorage } from 'node:async_hooks';

interface Scope {
  cancelled?: string;
}

const scopes = new AsyncLocalStorage<Scope>();

export interface Cancellable<T> {
  done: Promise<T>;
  /** From now on every request the body sends fails before it is sent, with this reason. */
  cancel(reason: string): void;
}

export function cancellable<T>(body: () => Promise<T>): Cancellable<T> {
  const scope: Scope = {};
  return {
    done: scopes.run(scope, body),
    cancel: (reason) => void (scope.cancelled ??= reason),
  };
}

/** Why the code running now was cancelled, or undefined. */
export function cancelledBecause(): string | undefined {
  return scopes.getStore()?.cancelled;
}

/** Thrown instead of sending a request of a cancelled test. */
export class Cancelled extends Error {
  constructor(reason: string) {
    super(`not sent: ${reason}`);
    this.name = 'Cancelled';
  }
}
