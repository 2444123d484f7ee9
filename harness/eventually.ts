// Polls an assertion until it holds or the deadline passes: effects on a real target may be asynchronous.

export interface EventuallyOptions {
  timeoutMs: number;
  intervalMs?: number;
}

export async function eventually<T>(assertion: () => Promise<T> | T, options: EventuallyOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let interval = options.intervalMs ?? 50;
  for (;;) {
    try {
      return await assertion();
    } catch (error) {
      if (Date.now() + interval > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, interval));
      interval = Math.min(interval * 2, 1_000);
    }
  }
}

/** Waits long enough for an asynchronous effect to have shown, before asserting that it did NOT happen. */
export function settle(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
