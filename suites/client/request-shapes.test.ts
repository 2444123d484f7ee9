// CLIENT-04: what the official client's request models let a client send — null where a model makes a field
// nullable, optional fields left out — is not refused for its shape. Each body goes through the SDK's own outbound
// model, so the wire body is exactly what the client sends (and the test fails loudly if the model stops allowing it).
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { sdkWireBody } from '../../harness/client/sdk-request-models.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';

const enc = encodeURIComponent;

function wire(template: string, value: unknown): unknown {
  const out = sdkWireBody(template, value);
  if ('problem' in out) throw new Error(`the test's body is not one the official client sends: ${out.problem}`);
  return out.body;
}

function expectAccepted(res: ApiResponse, status: number, what: string): void {
  expect(res.status, `${what} is allowed by the official client's request model and must not be refused for its shape; got ${res.status} ${res.text.slice(0, 300)}`).toBe(status);
}

conformance('CLIENT-04', 'a workflow with null preferences blocks, null payloadSchema and null agent is created (a client sends back what it read)', async ({ api, ids, cleanup }) => {
  const workflowId = ids.slug('wf');
  cleanup.remove(`workflow ${workflowId}`, `/v2/workflows/${enc(workflowId)}`);
  const body = wire('/v2/workflows', { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'In-app', type: 'in_app' }], payloadSchema: null, agent: null, preferences: { user: null, workflow: null } });
  expectAccepted(await api.post('/v2/workflows', body), 201, 'preferences {user: null, workflow: null}, payloadSchema: null, agent: null');
});

conformance('CLIENT-04', 'an agent integration update with only integrationIdentifier is applied', async ({ api, provision }) => {
  const { agent, link, other } = await provision.linkedAgent();
  const body = wire('/v1/agents/{identifier}/integrations/{agentIntegrationId}', { integrationIdentifier: other.identifier });
  expectAccepted(await api.patch(`/v1/agents/${enc(agent)}/integrations/${enc(link._id)}`, body), 200, 'an update naming only the integration');
});

conformance('CLIENT-04', 'a topic subscription delete whose entries are plain subscriber ids is processed', async ({ api, provision }) => {
  const { key } = await provision.topic();
  const { subscriberId } = await provision.subscriber();
  await provision.subscribe(key, [subscriberId]);
  // the model's entries are a subscriber id string or {identifier?, subscriberId?}
  const body = wire('/v2/topics/{topicKey}/subscriptions', { subscriptions: [subscriberId] });
  expectAccepted(await api.delete(`/v2/topics/${enc(key)}/subscriptions`, { body }), 200, 'subscriptions: ["<subscriberId>"]');
});

conformance('CLIENT-04', 'a layout preview whose subscriber fields are all null is previewed', async ({ api, provision }) => {
  const { layoutId } = await provision.layout();
  const subscriber = { firstName: null, lastName: null, email: null, phone: null, avatar: null, locale: null, timezone: null, isOnline: null, lastOnlineAt: null, data: null };
  const body = wire('/v2/layouts/{layoutId}/preview', { previewPayload: { subscriber } });
  expectAccepted(await api.post(`/v2/layouts/${enc(layoutId)}/preview`, body), 201, 'previewPayload.subscriber with every nullable field null');
});

conformance('CLIENT-04', 'listing environment variables without the optional search is answered', async ({ api }) => {
  expectAccepted(await api.get('/v1/environment-variables'), 200, 'a list without `search`');
});

conformance('CLIENT-04', 'listing environments, which takes no input, is answered', async ({ api }) => {
  expectAccepted(await api.get('/v1/environments'), 200, 'a list of environments');
});

conformance('CLIENT-04', 'a subscriber preference update with every field left out is answered', async ({ api, provision }) => {
  const { subscriberId } = await provision.subscriber();
  const body = wire('/v2/subscribers/{subscriberId}/preferences', {});
  expectAccepted(await api.patch(`/v2/subscribers/${enc(subscriberId)}/preferences`, body), 200, 'an empty preference update');
});

conformance('CLIENT-04', 'a trigger with null recipient fields, null agentId and a null layoutId override is accepted', async ({ api, provision }) => {
  const workflow = await provision.workflow();
  const { subscriberId } = await provision.subscriber();
  const nulls = { firstName: null, lastName: null, email: null, phone: null, avatar: null, locale: null, timezone: null, data: null };
  const body = wire('/v1/events/trigger', { workflowId: workflow.workflowId, to: [{ subscriberId, ...nulls }], agentId: null, overrides: { channels: { email: { layoutId: null } } } });
  expectAccepted(await api.post('/v1/events/trigger', body), 201, 'recipient fields, agentId and overrides.channels.email.layoutId null');
});

conformance('CLIENT-04', 'a trigger whose actor object has null profile fields and null data is accepted', async ({ api, provision }) => {
  const workflow = await provision.workflow();
  const { subscriberId } = await provision.subscriber();
  const actor = await provision.subscriber();
  const nulls = { firstName: null, lastName: null, email: null, phone: null, avatar: null, locale: null, timezone: null, data: null };
  const body = wire('/v1/events/trigger', { workflowId: workflow.workflowId, to: [subscriberId], actor: { subscriberId: actor.subscriberId, ...nulls } });
  expectAccepted(await api.post('/v1/events/trigger', body), 201, 'actor profile fields and data null');
});

conformance('CLIENT-04', 'a trigger whose `to` holds a topic recipient beside a subscriber id is accepted', async ({ api, provision }) => {
  const workflow = await provision.workflow();
  const { subscriberId } = await provision.subscriber();
  const topic = await provision.topic();
  const body = wire('/v1/events/trigger', { workflowId: workflow.workflowId, to: [subscriberId, { type: 'Topic', topicKey: topic.key }] });
  expectAccepted(await api.post('/v1/events/trigger', body), 201, 'a topic recipient `{type: "Topic", topicKey}` in `to`');
});

conformance('CLIENT-04', 'a trigger whose `to` is one subscriber id, or one subscriber object, is run for that recipient', async ({ api, provision }) => {
  const workflow = await provision.workflow();
  const { subscriberId } = await provision.subscriber();
  for (const [form, to] of [['a lone subscriber id', subscriberId], ['a lone subscriber object', { subscriberId }]] as const) {
    const res = await api.post('/v1/events/trigger', wire('/v1/events/trigger', { workflowId: workflow.workflowId, to }));
    expectAccepted(res, 201, `\`to\` as ${form}`);
    expect(res.data?.status, `\`to\` as ${form} names a recipient: the run is not refused as invalid_recipients`).not.toBe('invalid_recipients');
  }
});
