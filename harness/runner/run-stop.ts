// Stopping a suite run early (timeouts.runMs or a Ctrl-C): tests that have not started end as not verified with the
// reason, running ones get a bounded time to finish and remove what they created, then vitest cancels what is left.
// Tests run in worker threads, so the stop travels as a file they look for when they start.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How long running tests may take to finish once a stop is asked for. */
export const STOP_GRACE_MS = 15_000;
/** How long vitest's own cancel may take before the run is abandoned. */
const CANCEL_BOUND_MS = 5_000;

export class RunStop {
  readonly file: string;
  reason: string | undefined;
  /** True once the grace period and vitest's cancel are over: whatever still runs is abandoned. */
  abandonedRun = false;
  /** Resolves when the run is abandoned. */
  readonly abandoned: Promise<void>;
  private abandon!: () => void;
  private grace: NodeJS.Timeout | undefined;

  constructor(
    runPrefix: string,
    private readonly cancel: () => Promise<void>,
    private readonly graceMs = STOP_GRACE_MS,
  ) {
    this.file = join(tmpdir(), `conformance-stop-${runPrefix}-${process.pid}`);
    this.abandoned = new Promise((resolve) => (this.abandon = resolve));
  }

  stop(reason: string): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    writeFileSync(this.file, reason);
    this.grace = setTimeout(() => {
      void Promise.race([this.cancel(), new Promise((r) => setTimeout(r, CANCEL_BOUND_MS))]).then(() => {
        this.abandonedRun = true;
        this.abandon();
      });
    }, this.graceMs);
  }

  dispose(): void {
    clearTimeout(this.grace);
    rmSync(this.file, { force: true });
  }
}

/** In a test, as it starts: why the run stopped before it, or undefined. */
export function stopReason(file: string | undefined): string | undefined {
  if (!file || !existsSync(file)) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
