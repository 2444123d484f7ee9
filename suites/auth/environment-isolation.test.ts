import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { settle } from '../../harness/eventually.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';

// AUTH-05: what one environment's key creates is invisible to another environment's key (404, or absent from
// a list) and cannot be changed or deleted with it; the owner key reads the resource back afterwards.
const other = { as: 'secondary' as const };
const needs = { needs: ['secondaryKey'] as const };

/** `secrets`: values of the resource that the request itself does not name (so an error message cannot echo them). */
function expectInvisible(res: ApiResponse, secrets: (string | undefined)[], what: string): void {
  expect(res.status, `${what} with another environment's key must not find the resource (expected 404), got ${res.status}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${what} with another environment's key: a 5xx is never an answer`).toBeLessThan(500);
  for (const secret of secrets) {
    if (secret) expect(res.text.includes(secret), `${what} with another environment's key must not reveal the resource ("${secret}" appears in the body)`).toBe(false);
  }
}

conformance('AUTH-05', "a workflow is invisible to, and survives deletion by, another environment's key", async ({ api, provision, target }) => {
  const workflow = await provision.workflow();
  expectInvisible(await api.get(`/v2/workflows/${workflow.workflowId}`, other), [workflow._id, workflow.slug], 'GET /v2/workflows/{workflowId}');
  expectInvisible(await api.get(`/v2/workflows/${workflow._id}`, other), [workflow.workflowId, workflow.slug], 'GET /v2/workflows/{_id}');
  for (const id of [workflow._id, workflow.workflowId]) await api.delete(`/v2/workflows/${id}`, other);
  await settle(target.timeouts.settleMs); // an asynchronous target applies a wrongly accepted delete later
  const read = await api.get(`/v2/workflows/${workflow.workflowId}`);
  expect(read.status, "the workflow must survive DELETE requests sent with another environment's key").toBe(200);
  expect(read.data?._id, 'the owner still reads the same workflow').toBe(workflow._id);
}, needs);

conformance('AUTH-05', "a workflow created with the secondary key is invisible to the primary key", async ({ api, provision }) => {
  const workflow = await provision.withIdentity('secondary').workflow();
  expectInvisible(await api.get(`/v2/workflows/${workflow.workflowId}`), [workflow._id, workflow.slug], 'GET /v2/workflows/{workflowId}');
  const read = await api.get(`/v2/workflows/${workflow.workflowId}`, other);
  expect(read.status, 'the owning (secondary) key reads its workflow').toBe(200);
}, needs);

conformance('AUTH-05', "a subscriber is invisible to, and unchanged by, another environment's key", async ({ api, provision, target }) => {
  const subscriber = await provision.subscriber();
  const path = `/v2/subscribers/${subscriber.subscriberId}/preferences`;
  const own = await api.get(path);
  expect(own.status, 'the owner reads the subscriber’s preferences').toBe(200);

  expectInvisible(await api.get(path, other), [subscriber._id as string | undefined], 'GET /v2/subscribers/{subscriberId}/preferences');
  const emailBefore = own.data?.global?.channels?.email;
  await api.patch(path, { channels: { email: emailBefore === false } }, other);
  await api.delete(`/v2/subscribers/${subscriber.subscriberId}`, other);
  await settle(target.timeouts.settleMs);

  const read = await api.get(path);
  expect(read.status, "the subscriber must survive a DELETE sent with another environment's key").toBe(200);
  expect(read.data?.global?.channels?.email, "a PATCH sent with another environment's key must not change the subscriber's preferences").toBe(emailBefore);
}, needs);

conformance('AUTH-05', "a topic and its subscriptions are invisible to, and kept from, another environment's key", async ({ api, provision, target }) => {
  const topic = await provision.topic();
  const subscriber = await provision.subscriber();
  await provision.subscribe(topic.key, [subscriber.subscriberId]);
  const subscriptionsPath = `/v2/topics/${topic.key}/subscriptions`;

  const listed = await api.get(subscriptionsPath, other);
  if (listed.status === 200) {
    expect(listed.text.includes(subscriber.subscriberId), "another environment's key must not see the topic's subscriptions listed").toBe(false);
  } else {
    expectInvisible(listed, [subscriber.subscriberId], 'GET /v2/topics/{topicKey}/subscriptions');
  }
  await api.delete(subscriptionsPath, { ...other, body: { subscriptions: [{ subscriberId: subscriber.subscriberId }] } });
  await api.delete(`/v2/topics/${topic.key}`, other);
  await settle(target.timeouts.settleMs);

  const after = await provision.listSubscriptions(topic.key);
  expect(
    after.some((s) => (s.subscriber?.subscriberId ?? s.identifier).includes(subscriber.subscriberId)),
    "the topic and its subscription must survive DELETE requests sent with another environment's key",
  ).toBe(true);
}, needs);
