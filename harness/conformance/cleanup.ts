// Undo actions registered where a resource is created; run last-in first-out after each test, even on failure.
// Deletions registered with `remove` are descriptors, so the run's final sweep can retry what failed.
import type { Identity } from '../../config/settings.ts';
import type { Leak } from '../../report/test-record.ts';
import type { ApiClient } from '../http/api-client.ts';

/** Statuses that mean "gone" for a DELETE: removed now, or already absent. */
const GONE = [200, 202, 204, 404];
const CLEANUP_TRANSPORT_RETRIES = 2;

export class Cleanup {
  private readonly actions: { label: string; run: () => Promise<unknown>; retry?: Leak['retry'] }[] = [];

  constructor(private readonly api?: ApiClient) {}

  add(label: string, run: () => Promise<unknown>): void {
    this.actions.push({ label, run });
  }

  /** Registers `DELETE path` (with that identity, on that base); a status other than 2xx/404 is a leak. */
  remove(label: string, path: string, { as = 'primary', regional = false }: { as?: Identity; regional?: boolean } = {}): void {
    const api = this.api;
    if (!api) throw new Error('Cleanup.remove needs an ApiClient');
    this.actions.push({
      label,
      retry: { path, as, ...(regional ? { regional } : {}) },
      run: async () => {
        // a DELETE is idempotent: one lost to the network is sent again (an earlier one that did remove it gets 404)
        const res = await api.delete(path, { as, regional, transportRetries: CLEANUP_TRANSPORT_RETRIES });
        if (!GONE.includes(res.status)) throw new Error(`DELETE ${path} answered ${res.status}`);
      },
    });
  }

  /** Runs every action; returns those that failed (leaks). */
  async runAll(): Promise<Leak[]> {
    const leaks: Leak[] = [];
    for (const action of this.actions.splice(0).reverse()) {
      try {
        await action.run();
      } catch (error) {
        leaks.push({ label: action.label, error: (error as Error).message, ...(action.retry ? { retry: action.retry } : {}) });
      }
    }
    return leaks;
  }
}

export { GONE as DELETED_STATUSES };
