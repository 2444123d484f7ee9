// Identifiers for created data: run prefix + label + counter, always within the spec's slug pattern.
import { randomBytes } from 'node:crypto';

export class IdFactory {
  private counter = 0;
  private readonly salt = randomBytes(3).toString('hex');

  constructor(readonly runPrefix: string) {}

  /** e.g. `cft-1a2b3c-wf-4d5e6f-1`: unique across workers and within the run's prefix. */
  slug(label: string): string {
    this.counter += 1;
    return `${this.runPrefix}-${label}-${this.salt}-${this.counter}`;
  }
}

/** Identifiers from a counter alone, no random salt: two runs with one prefix name everything alike (fuzz, diff). */
export class SequentialIdFactory extends IdFactory {
  private n = 0;

  override slug(label: string): string {
    this.n += 1;
    return `${this.runPrefix}-${label}-${this.n}`;
  }
}
