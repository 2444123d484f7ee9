import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { expectErrorResponse } from '../../harness/checks/error-body.ts';
import { settle } from '../../harness/eventually.ts';
import { expectNothingTriggered, expectTriggered, freshRecipients, lastTriggeredAt, TRIGGER_PATH } from '../../fixtures/trigger/trigger-effects.ts';

// AUTH-04: the restricted key authenticates but may not write. Each write below must get 403 with the common
// error body, and the state it would have changed is read back with the primary key afterwards.
const restricted = { as: 'restricted' as const };
const needs = { needs: ['restrictedKey'] as const };

conformance('AUTH-04', 'a workflow creation with the restricted key gets 403 and creates nothing', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  cleanup.remove(`workflow ${workflowId}`, `/v2/workflows/${workflowId}`);
  const res = await api.post('/v2/workflows', { name: `conformance ${workflowId}`, workflowId, steps: [] }, restricted);
  expectErrorResponse(res, 403, 'POST /v2/workflows with the restricted key');
  const read = await api.get(`/v2/workflows/${workflowId}`);
  expect(read.status, 'the forbidden creation must not have created the workflow').toBe(404);
}, needs);

conformance('AUTH-04', 'a trigger with the restricted key gets 403 and runs nothing', async ({ api, ids, provision, target }) => {
  const workflow = await provision.workflow();
  const [forbidden, allowed] = freshRecipients(ids, provision, 2, 'auth-rcpt');
  const before = await lastTriggeredAt(api, workflow);
  const res = await api.post(TRIGGER_PATH, { name: workflow.workflowId, to: [forbidden!] }, restricted);
  expectErrorResponse(res, 403, 'POST /v1/events/trigger with the restricted key');
  await expectNothingTriggered({ api, target }, { wf: workflow, before, subscriberIds: [forbidden!.subscriberId], why: 'a trigger with the restricted key' });
  // Positive control: the same trigger with the primary key does show its effect.
  await api.post(TRIGGER_PATH, { name: workflow.workflowId, to: [allowed!] });
  await expectTriggered({ api, target }, [allowed!.subscriberId], 'the same trigger with the primary key');
}, needs);

conformance('AUTH-04', 'a preference update with the restricted key gets 403 and changes nothing', async ({ api, provision, target }) => {
  const subscriber = await provision.subscriber();
  const path = `/v2/subscribers/${subscriber.subscriberId}/preferences`;
  const before = (await api.get(path)).data?.global?.channels?.email;
  const res = await api.patch(path, { channels: { email: before === false } }, restricted);
  expectErrorResponse(res, 403, 'PATCH /v2/subscribers/{subscriberId}/preferences with the restricted key');
  await settle(target.timeouts.settleMs);
  const read = await api.get(path);
  expect(read.status, 'reading the preferences back with the primary key').toBe(200);
  expect(read.data?.global?.channels?.email, 'the forbidden PATCH must not have changed the email setting').toBe(before);
}, needs);

conformance('AUTH-04', 'a topic-subscription deletion with the restricted key gets 403 and removes nothing', async ({ api, provision }) => {
  const topic = await provision.topic();
  const subscriber = await provision.subscriber();
  await provision.subscribe(topic.key, [subscriber.subscriberId]);
  const res = await api.delete(`/v2/topics/${topic.key}/subscriptions`, { ...restricted, body: { subscriptions: [{ subscriberId: subscriber.subscriberId }] } });
  expectErrorResponse(res, 403, 'DELETE /v2/topics/{topicKey}/subscriptions with the restricted key');
  const listed = (await provision.listSubscriptions(topic.key)).map((s) => s.subscriber?.subscriberId ?? s.identifier);
  expect(listed.some((id) => id.includes(subscriber.subscriberId)), 'the forbidden deletion must leave the subscription in place').toBe(true);
}, needs);

conformance('AUTH-04', 'an agent-integration update with the restricted key gets 403 and keeps the link', async ({ api, provision, notVerified }) => {
  const agent = await provision.agent();
  const [linked, other] = [await provision.integration(), await provision.integration()];
  const link = await provision.agentLink(agent.identifier, linked.identifier);
  const res = await api.patch(`/v1/agents/${agent.identifier}/integrations/${link._id}`, { integrationIdentifier: other.identifier }, restricted);
  expectErrorResponse(res, 403, 'PATCH /v1/agents/{identifier}/integrations/{agentIntegrationId} with the restricted key');
  // The deployed service lists an agent's links (GET /v1/agents/{identifier}/integrations); provisioning.md does not require it.
  const links = await api.get(`/v1/agents/${agent.identifier}/integrations`);
  if (links.status !== 200 || !Array.isArray(links.data)) return notVerified(`the link cannot be read back (GET /v1/agents/{identifier}/integrations → ${links.status})`);
  const current = (links.data as { _id: string; integration?: { identifier?: string } }[]).find((l) => l._id === link._id);
  expect(current?.integration?.identifier, 'the forbidden update must not have re-pointed the link').toBe(linked.identifier);
}, needs);
