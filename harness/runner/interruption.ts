// A requested stop (the first Ctrl-C): whoever runs something long checks it, finishes what is under way within a
// bound, cleans up and reports; `leftovers` says what may remain on the target if the process ended right now.
export class Interruption {
  private readonly controller = new AbortController();
  /** What may still be on the target if the process ended now; set by whoever creates things there. */
  leftovers: () => string[] = () => [];

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get requested(): boolean {
    return this.controller.signal.aborted;
  }

  /** The signal that asked for the stop (`SIGINT`, `SIGTERM`). */
  get cause(): string {
    return String(this.controller.signal.reason ?? 'SIGINT');
  }

  private readonly exitHooks = new Set<() => string[]>();

  /** What a second Ctrl-C still does as the process exits at once (quick: nothing waits for it); returns what may be left. */
  onExitAtOnce(hook: () => string[]): () => void {
    this.exitHooks.add(hook);
    return () => this.exitHooks.delete(hook);
  }

  /** Runs those hooks (a second Ctrl-C): the lines of what may be left. */
  exitAtOnce(): string[] {
    return [...this.exitHooks].flatMap((hook) => hook());
  }

  request(cause: string): void {
    if (!this.requested) this.controller.abort(cause);
  }
}
