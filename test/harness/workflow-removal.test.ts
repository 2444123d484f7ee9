// A workflow creation registers its removal whatever its answer: the network can lose the answer to a creation the
// target made, and the suite retries the test with fresh ids, so nothing else would remove the first one.
import { describe, expect, it } from 'vitest';
import { Cleanup } from '../../harness/conformance/cleanup.ts';
import type { ApiClient } from '../../harness/http/api-client.ts';
import { postWorkflow } from '../../fixtures/workflows/workflow-requests.ts';

/** An ApiClient whose POST answers as given (or fails like a reset) and whose DELETEs are recorded. */
function fakeApi(post: () => Promise<unknown>) {
  const deleted: string[] = [];
  const api = { post, delete: async (path: string) => (deleted.push(path), { status: 204 }) } as unknown as ApiClient;
  return { api, deleted };
}

describe('postWorkflow', () => {
  it('removes the requested workflowId when the answer to the creation was lost', async () => {
    const { api, deleted } = fakeApi(() => Promise.reject(new Error('socket hang up')));
    const cleanup = new Cleanup(api);
    await expect(postWorkflow(api, cleanup, { name: 'n', workflowId: 'run-x-wf', steps: [] })).rejects.toThrow('socket hang up');
    expect(await cleanup.runAll()).toEqual([]);
    expect(deleted).toEqual(['/v2/workflows/run-x-wf']);
  });

  it('also removes the returned _id when the target kept another workflowId', async () => {
    const { api, deleted } = fakeApi(async () => ({ status: 201, data: { _id: 'abc123' } }));
    const cleanup = new Cleanup(api);
    await postWorkflow(api, cleanup, { name: 'n', workflowId: 'run-x-wf', steps: [] });
    await cleanup.runAll();
    expect(deleted.sort()).toEqual(['/v2/workflows/abc123', '/v2/workflows/run-x-wf']);
  });
});
