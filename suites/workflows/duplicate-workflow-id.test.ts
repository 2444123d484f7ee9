// A workflowId is unique within an environment (WF-09).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { expectCreated, postWorkflow, readWorkflow } from '../../fixtures/workflows/workflow-requests.ts';

conformance('WF-09', 'a second workflow with the same workflowId is rejected with 409 or 400 and the first stays untouched', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const first = await postWorkflow(api, cleanup, { name: 'First', workflowId, description: 'the original', steps: [{ name: 'In-app', type: 'in_app' }] });
  expectCreated(first, 'the first workflow is created');

  const second = await postWorkflow(api, cleanup, { name: 'Second', workflowId, description: 'the duplicate', steps: [{ name: 'Email', type: 'email' }] });
  expect([409, 400], `a second workflow with workflowId "${workflowId}" is rejected with 409 or 400, got ${second.status}`).toContain(second.status);

  const read = await readWorkflow(api, first.data._id);
  expect(read.status, 'the first workflow still reads back').toBe(200);
  expect(read.data, 'the first workflow keeps its name, description and steps').toMatchObject({
    _id: first.data._id,
    workflowId,
    name: 'First',
    description: 'the original',
    steps: [expect.objectContaining({ type: 'in_app', name: 'In-app' })],
  });
  expect(read.data.steps, 'the first workflow keeps exactly its one step').toHaveLength(1);
});
