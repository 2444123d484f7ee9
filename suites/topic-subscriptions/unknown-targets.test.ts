// TS-08, TS-09: unknown topic, every entry failing, and a subscriber that is not subscribed.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { expectErrorResponse } from '../../harness/checks/error-body.ts';
import { eventually } from '../../harness/eventually.ts';
import { deleteSubscriptions, expectEntryErrors, ghosts, listedIdentifiers, subscribedTopic, type DeleteResult } from '../../fixtures/topic-subscriptions/topic-setup.ts';

conformance('TS-08', 'deleting subscriptions of an unknown topic key gets 404', async ({ api, provision, ids }) => {
  const { subscriberId } = await provision.subscriber();
  const res = await deleteSubscriptions(api, ids.slug('missing-topic'), { subscriptions: [{ subscriberId }] });
  expectErrorResponse(res, 404, 'a topic key that does not exist');
});

conformance('TS-08', 'a delete whose every entry fails answers 400 with the result in the body', async (ctx) => {
  const { topicKey, identifiers } = await subscribedTopic(ctx, ['a']);
  const unknown = ghosts(ctx.ids, 2);
  const res = await deleteSubscriptions(ctx.api, topicKey, { subscriptions: unknown.map((subscriberId) => ({ subscriberId })) });
  expect(res.status, 'every entry failed: the deployed service answers 400').toBe(400);
  const body = (res.json ?? {}) as DeleteResult;
  expect(body, 'the 400 carries the result body {data, meta, errors}').toMatchSchema('DeleteTopicSubscriptionsResponseDto');
  expect(body.meta, 'meta of a request whose 2 entries both failed').toEqual(expect.objectContaining({ totalCount: 2, successful: 0, failed: 2 }));
  expectEntryErrors(body, unknown, 'SUBSCRIBER_NOT_FOUND', 'an unknown subscriber');
  expect(await listedIdentifiers(ctx.provision, topicKey), 'the existing subscription is untouched').toEqual(identifiers.a);
});

conformance('TS-09', 'an existing subscriber without a subscription is reported as SUBSCRIPTION_NOT_FOUND, never as successful', async (ctx) => {
  const { topicKey, subscriber } = await subscribedTopic(ctx, ['a']);
  const { subscriberId: notSubscribed } = await ctx.provision.subscriber({ subscriberId: ctx.ids.slug('sub-unsubscribed') });
  const res = await deleteSubscriptions(ctx.api, topicKey, { subscriptions: [{ subscriberId: subscriber.a }, { subscriberId: notSubscribed }] });
  const body = (res.json ?? {}) as DeleteResult;
  expectEntryErrors(body, [notSubscribed], 'SUBSCRIPTION_NOT_FOUND', 'an existing subscriber that is not subscribed to the topic');
  expect(body.meta, 'one entry succeeded (the subscribed subscriber), one failed (the unsubscribed one)').toEqual(expect.objectContaining({ successful: 1, failed: 1 }));
  expect((body.data ?? []).map((s) => s.subscriber?.subscriberId), 'data never lists the subscriber that was not subscribed').not.toContain(notSubscribed);
  await eventually(async () => {
    expect(await listedIdentifiers(ctx.provision, topicKey), 'the subscribed subscriber’s subscription is removed').toEqual([]);
  }, { timeoutMs: ctx.target.timeouts.eventuallyMs });
});

conformance('TS-09', 'an identifier naming no subscription of an existing subscriber is reported as SUBSCRIPTION_NOT_FOUND, never as successful', async (ctx) => {
  const { topicKey, identifiers } = await subscribedTopic(ctx, ['a']);
  const { subscriberId: notSubscribed } = await ctx.provision.subscriber({ subscriberId: ctx.ids.slug('sub-unsubscribed') });
  // the identifier the subscriber would have (TS-07 shape), which names no subscription of the topic
  const missing = `${topicKey}:${notSubscribed}`;
  const res = await deleteSubscriptions(ctx.api, topicKey, { subscriptions: [{ identifier: identifiers.a![0]! }, { identifier: missing }] });
  expect(res.status, `one of two identifier entries names no subscription: processed as a partial success, got ${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(500);
  const body = (res.json ?? {}) as DeleteResult;
  // which subscriberId the entry of an identifier-only request carries is left open (the deployed service: "unknown")
  const reported = (body.errors ?? []).filter((e) => e.code === 'SUBSCRIPTION_NOT_FOUND');
  expect(reported.length, `errors[] reports the identifier ${missing} that names no subscription as SUBSCRIPTION_NOT_FOUND, got ${JSON.stringify(body.errors)}`).toBe(1);
  expect(typeof reported[0]?.message === 'string' && reported[0].message.length > 0, `the errors[] entry carries a message, got ${JSON.stringify(reported[0]?.message)}`).toBe(true);
  expect(body.meta, 'one entry succeeded (the existing subscription), one failed (the identifier that names none)').toEqual(expect.objectContaining({ successful: 1, failed: 1 }));
  expect((body.data ?? []).map((s) => s.identifier), 'data never lists the identifier that names no subscription').not.toContain(missing);
  await eventually(async () => {
    expect(await listedIdentifiers(ctx.provision, topicKey), 'the existing subscription named alongside is removed').toEqual([]);
  }, { timeoutMs: ctx.target.timeouts.eventuallyMs });
});

// The deployed service reports such a pair (SUBSCRIPTION_NOT_FOUND for the subscriber named) and also removes what the
// identifier names; only the report is asserted, so the test holds against either way of handling the subscription.
conformance('TS-09', 'an entry pairing another subscriber\'s subscription identifier with a subscriber not subscribed is reported as SUBSCRIPTION_NOT_FOUND', async (ctx) => {
  const { topicKey, identifiers } = await subscribedTopic(ctx, ['a']);
  const { subscriberId: notSubscribed } = await ctx.provision.subscriber({ subscriberId: ctx.ids.slug('sub-unsubscribed') });
  const othersIdentifier = identifiers.a![0]!;
  const res = await deleteSubscriptions(ctx.api, topicKey, { subscriptions: [{ identifier: othersIdentifier, subscriberId: notSubscribed }] });
  expect(res.status, `an entry whose identifier belongs to another subscriber is answered, never with a 5xx; got ${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(500);
  expectEntryErrors((res.json ?? {}) as DeleteResult, [notSubscribed], 'SUBSCRIPTION_NOT_FOUND', `the entry {identifier: ${othersIdentifier}, subscriberId: ${notSubscribed}}, whose subscriber holds no subscription under that identifier`);
});
