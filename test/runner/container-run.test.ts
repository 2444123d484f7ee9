// The end of a container run: the container is removed after the tests and the sweep, and a Ctrl-C during that
// removal still makes the run an interrupted one (exit 130, reports marked), saying when it came.
import { describe, expect, it } from 'vitest';
import { stopRunContainer } from '../../harness/runner/container-run.ts';
import { Interruption } from '../../harness/runner/interruption.ts';

describe('removing the run’s container', () => {
  it('a Ctrl-C during the removal: the removal ends, and the run reads as interrupted, saying every test had finished', async () => {
    const interruption = new Interruption();
    const events: string[] = [];
    const container = { baseUrl: 'http://127.0.0.1:1', stop: async () => (events.push('removed'), interruption.request('SIGINT')) };
    const runs = [{ errors: [] as string[] }];
    expect(await stopRunContainer(container, interruption, false, runs)).toBe(true);
    expect(events).toEqual(['removed']);
    expect(runs[0]!.errors).toEqual(['the run was interrupted (SIGINT) while its container was being removed; every test had finished']);
  });

  it('no Ctrl-C, or one that already stopped the tests: nothing added', async () => {
    const container = { baseUrl: 'http://127.0.0.1:1', stop: async () => undefined };
    const runs = [{ errors: [] as string[] }];
    expect(await stopRunContainer(container, new Interruption(), false, runs)).toBe(false);
    const early = new Interruption();
    early.request('SIGTERM');
    expect(await stopRunContainer(container, early, true, runs)).toBe(false);
    expect(runs[0]!.errors).toEqual([]);
  });
});
