// Undo actions registered where a resource is created; run last-in first-out after each test, even on failure.

export class Cleanup {
  private readonly actions: { label: string; run: () => Promise<unknown> }[] = [];

  add(label: string, run: () => Promise<unknown>): void {
    this.actions.push({ label, run });
  }

  /** Runs every action; returns the labels of those that failed (leaks). */
  async runAll(): Promise<string[]> {
    const leaks: string[] = [];
    for (const action of this.actions.splice(0).reverse()) {
      try {
        await action.run();
      } catch (error) {
        leaks.push(`${action.label}: ${(error as Error).message}`);
      }
    }
    return leaks;
  }
}
