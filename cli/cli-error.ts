/** A usage or configuration problem: the CLI prints the message (no stack) and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
