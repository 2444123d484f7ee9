/** A usage or configuration problem: the CLI prints the message (no stack) and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** README § exit codes. `incomplete`: no MUST rule failed, some MUST rule was not verified (or, for verify-bundle, an intact bundle that certifies nothing). */
export const EXIT = { ok: 0, failed: 1, usage: 2, incomplete: 3 } as const;
