import type { SkipOutcome } from '../../report/test-record.ts';

/** Thrown from inside a test (or a fixture it calls) to end it without a verdict of its own. */
export class Skip extends Error {
  constructor(
    readonly outcome: SkipOutcome,
    readonly reason: string,
  ) {
    super(`${outcome}: ${reason}`);
    this.name = 'Skip';
  }
}
