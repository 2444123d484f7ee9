// Optional structured fields of a created workflow: preferences (WF-07) and the agent assignment (WF-08).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { expectCreated, postWorkflow, readWorkflow } from '../../fixtures/workflows/workflow-requests.ts';

conformance('WF-07', 'a workflow created with user and workflow preferences is accepted and carries preferences', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const preferences = {
    user: { all: { enabled: true, readOnly: false }, channels: { email: { enabled: false }, sms: {} } },
    workflow: { all: { enabled: true, readOnly: true }, channels: { in_app: { enabled: true } } },
  };
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'In-app', type: 'in_app' }], preferences });
  expectCreated(res, 'the documented `preferences` request shape is accepted');
  expect(res.data.preferences, 'the response carries a `preferences` object').toBeTypeOf('object');
  expect(res.data.preferences, 'the response `preferences` is an object, not null').not.toBeNull();
});

// The request shape makes `user`, `workflow`, `all` and `channels` optional: a body with some of them is as valid.
conformance('WF-07', 'a workflow created with only workflow preferences holding only channels is accepted and carries preferences', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const preferences = { workflow: { channels: { email: { enabled: false } } } };
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'In-app', type: 'in_app' }], preferences });
  expectCreated(res, 'the documented `preferences` shape without `user` and without `workflow.all` (both optional) is accepted');
  expect(res.data.preferences, 'the response carries a `preferences` object').toBeTypeOf('object');
  expect(res.data.preferences, 'the response `preferences` is an object, not null').not.toBeNull();
});

conformance('WF-07', 'a workflow created with only workflow preferences holding only `all` is accepted and carries preferences', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const preferences = { workflow: { all: { enabled: false, readOnly: false } } };
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'In-app', type: 'in_app' }], preferences });
  expectCreated(res, 'the documented `preferences` shape without `user` and without `workflow.channels` (both optional) is accepted');
  expect(res.data.preferences, 'the response carries a `preferences` object').toBeTypeOf('object');
  expect(res.data.preferences, 'the response `preferences` is an object, not null').not.toBeNull();
});

// CLIENT-02 reads the answer on every exchange: a user block without `channels` is what the official client cannot read.
// Named for CLIENT-02 too, so that the fault proof (a rule's own tests where it has any) runs this case for it.
conformance(['WF-07', 'CLIENT-02'], 'a workflow created with user preferences holding only `all` is accepted and carries preferences', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const preferences = { user: { all: { enabled: true, readOnly: false } } };
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'In-app', type: 'in_app' }], preferences });
  expectCreated(res, 'the documented `preferences` shape with a `user` block holding only `all` is accepted');
  expect(res.data.preferences, 'the response carries a `preferences` object').toEqual(expect.objectContaining({ default: expect.any(Object) }));
});

// The passive CLIENT-02 check reads the answer with the official client's model (`all.enabled`, `all.readOnly`: booleans);
// the deployed service's upsert command checks both flags as booleans.
conformance('CLIENT-02', 'a workflow whose preference flags are not booleans is rejected or answered with boolean flags', async ({ api, ids, cleanup }) => {
  // One flag per body: a body refused for one flag says nothing of the other.
  const cases = [{ user: { all: { enabled: 'yes', readOnly: false } } }, { workflow: { all: { enabled: true, readOnly: 'no' } } }];
  for (const preferences of cases) {
    const workflowId = ids.slug('wf');
    const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'In-app', type: 'in_app' }], preferences });
    if (res.status >= 400 && res.status < 500) continue;
    expectCreated(res, `preferences ${JSON.stringify(preferences)} are either rejected with 4xx or the workflow is created`);
    for (const block of [res.data.preferences?.user, res.data.preferences?.default]) {
      if (!block) continue;
      expect(block.all?.enabled ?? true, '`all.enabled` of the answer is a boolean, as the official client reads it').toBeTypeOf('boolean');
      expect(block.all?.readOnly ?? false, '`all.readOnly` of the answer is a boolean, as the official client reads it').toBeTypeOf('boolean');
    }
  }
});

conformance('WF-08', 'a workflow created with an agent and a provider replyTo stores and echoes the agent', async ({ api, ids, cleanup, provision }) => {
  const { identifier } = await provision.agent();
  const agent = { identifier, providers: { sendgrid: { replyTo: 'replies@example.com' } } };
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'Email', type: 'email' }], agent });
  expectCreated(res, 'a workflow with an agent assignment is created');
  expect(res.data.agent, 'the create response echoes the agent with its providers').toMatchObject(agent);
  const read = await readWorkflow(api, res.data._id);
  expect(read.status, 'the created workflow reads back').toBe(200);
  expect(read.data.agent, 'the agent assignment is stored: the workflow read back carries it').toMatchObject(agent);
});

// `providers` is optional in the agent config.
conformance('WF-08', 'a workflow created with an agent without providers stores and echoes the agent', async ({ api, ids, cleanup, provision }) => {
  const { identifier } = await provision.agent();
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'Email', type: 'email' }], agent: { identifier } });
  expectCreated(res, 'a workflow with an agent assignment without `providers` is created');
  expect(res.data.agent, 'the create response echoes the agent identifier').toMatchObject({ identifier });
  const read = await readWorkflow(api, res.data._id);
  expect(read.status, 'the created workflow reads back').toBe(200);
  expect(read.data.agent, 'the agent assignment is stored: the workflow read back carries it').toMatchObject({ identifier });
});

conformance('WF-08', 'a workflow created with agent null has agent null', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [], agent: null });
  expectCreated(res, 'a workflow with `agent: null` is created');
  expect(res.data, '`agent: null` leaves the agent null').toHaveProperty('agent', null);
});

// Agent identifiers are slug-style identifiers (RULES.md, wire conventions): one outside the pattern is no agent's.
conformance('WF-08', 'a workflow whose agent identifier is outside the slug pattern is refused with 4xx', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'Email', type: 'email' }], agent: { identifier: 'not a slug!' } });
  expect(res.status >= 400 && res.status < 500, `agent.identifier "not a slug!" is outside the slug pattern and is refused with a 4xx, got ${res.status}`).toBe(true);
}, { level: 'SHOULD' });

// Every channel the spec's tables list, in both blocks of the workflow preferences request.
conformance('WF-07', 'a workflow created with preferences naming each of the six channels in both blocks is accepted and carries preferences', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  const channels = Object.fromEntries(['email', 'sms', 'in_app', 'push', 'chat', 'tool'].map((c, i) => [c, { enabled: i % 2 === 0 }]));
  const preferences = { user: { all: { enabled: true, readOnly: false }, channels }, workflow: { all: { enabled: false, readOnly: true }, channels } };
  const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'In-app', type: 'in_app' }], preferences });
  expectCreated(res, `preferences whose channels name ${Object.keys(channels).join(', ')} are accepted`);
  expect(res.data.preferences, 'the response carries a `preferences` object, not null').toBeTypeOf('object');
  expect(res.data.preferences, 'the response `preferences` is an object, not null').not.toBeNull();
});

// Hard values of the nested agent config: an empty `providers` map and a provider without `replyTo` (optional).
conformance('WF-08', 'a workflow created with an agent whose providers map is empty, or names a provider without replyTo, echoes the agent, never null', async ({ api, ids, cleanup, provision }) => {
  const { identifier } = await provision.agent();
  for (const agent of [{ identifier, providers: {} }, { identifier, providers: { sendgrid: {} } }]) {
    const workflowId = ids.slug('wf');
    const res = await postWorkflow(api, cleanup, { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'Email', type: 'email' }], agent });
    expectCreated(res, `a workflow with agent ${JSON.stringify(agent)} is created`);
    expect(res.data.agent, `the agent ${JSON.stringify(agent)} is echoed as an object, never null`).not.toBeNull();
    expect(res.data.agent, `the create response echoes the agent ${JSON.stringify(agent)}`).toMatchObject(agent);
    const read = await readWorkflow(api, res.data._id);
    expect(read.data?.agent, `read back, the agent ${JSON.stringify(agent)} is stored`).toMatchObject(agent);
  }
});
