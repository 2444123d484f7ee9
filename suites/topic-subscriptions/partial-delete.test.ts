// TS-01..TS-04: one DELETE that mixes identifiers, a subscriber-only entry and unknown subscribers. TS-04 is judged
// on a DELETE whose entries each match at most one subscription (RULES.md: the other case is judged by no rule).
import { expect } from 'vitest';
import { conformance, type ConformanceContext } from '../../fixtures/conformance.ts';
import { eventually } from '../../harness/eventually.ts';
import { deleteSubscriptions, expectEntryErrors, ghosts, identifiersIn, listedIdentifiers, subscribedTopic, type DeleteResult } from '../../fixtures/topic-subscriptions/topic-setup.ts';

/**
 * Subscribers a, b, c (subscribed twice), d. The request names a and b by identifier, c by subscriberId only,
 * and two unknown subscriber ids: five entries, three of which succeed; d is not named and must survive.
 */
async function mixedDelete(ctx: ConformanceContext) {
  const topic = await subscribedTopic(ctx, ['a', 'b', 'c', 'd'], 'c');
  const unknown = ghosts(ctx.ids, 2);
  const [idA, idB] = [topic.identifiers.a![0]!, topic.identifiers.b![0]!];
  const subscriptions = [
    { identifier: idA },
    { subscriberId: topic.subscriber.c! },
    { subscriberId: unknown[0]! },
    { identifier: idB },
    { subscriberId: unknown[1]! },
  ];
  const res = await deleteSubscriptions(ctx.api, topic.topicKey, { subscriptions });
  return { ...topic, unknown, idA, idB, entries: subscriptions.length, res, body: (res.json ?? {}) as DeleteResult };
}

conformance('TS-01', 'deleting by identifier removes the subscriptions, lists them in data and counts them as successful', async (ctx) => {
  const { body, idA, idB, topicKey, identifiers } = await mixedDelete(ctx);
  expect(body, 'the delete-topic-subscriptions body {data, meta, errors}').toMatchSchema('DeleteTopicSubscriptionsResponseDto');
  expect(identifiersIn(body), 'data lists the subscriptions removed by identifier').toEqual(expect.arrayContaining([idA, idB]));
  // 3 entries succeeded; c's entry removed 2 subscriptions, and the deployed service counts subscriptions (4): TS-04 note
  expect([3, 4], `meta.successful counts the successful entries (3) or the removed subscriptions (4), got meta ${JSON.stringify(body.meta)}`).toContain(body.meta?.successful);
  await eventually(async () => {
    const left = await listedIdentifiers(ctx.provision, topicKey);
    expect(left, 'the subscriptions deleted by identifier are gone from the topic listing').not.toContain(idA);
    expect(left, 'the subscriptions deleted by identifier are gone from the topic listing').not.toContain(idB);
    expect(left, 'a subscription the request did not name is kept').toContain(identifiers.d![0]);
  }, { timeoutMs: ctx.target.timeouts.eventuallyMs });
});

// An entry may carry both fields (both optional in the spec). The deployed service then also removes every other
// subscription of that subscriber in the topic and may list one twice (TS-04 note), so only this one is asserted.
conformance('TS-01', 'an entry naming a subscription by its identifier and its own subscriberId removes it and lists it in data', async (ctx) => {
  const { topicKey, identifiers, subscriber } = await subscribedTopic(ctx, ['a', 'b']);
  const idA = identifiers.a![0]!;
  const res = await deleteSubscriptions(ctx.api, topicKey, { subscriptions: [{ identifier: idA, subscriberId: subscriber.a! }] });
  expect(res.status, `the entry names an existing subscription with its own subscriber: a success, got ${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(300);
  const body = (res.json ?? {}) as DeleteResult;
  expect(identifiersIn(body), `data lists the subscription ${idA} the entry names`).toContain(idA);
  expect((body.errors ?? []).filter((e) => e.subscriberId === subscriber.a), `errors[] holds no entry for ${subscriber.a}, whose own subscription the entry names`).toEqual([]);
  await eventually(async () => {
    const left = await listedIdentifiers(ctx.provision, topicKey);
    expect(left, `the subscription ${idA} is gone from the topic listing`).not.toContain(idA);
    expect(left, 'a subscription the request did not name is kept').toContain(identifiers.b![0]);
  }, { timeoutMs: ctx.target.timeouts.eventuallyMs });
});

conformance('TS-02', 'an entry with only subscriberId removes every subscription of that subscriber in the topic', async (ctx) => {
  const { body, topicKey, identifiers } = await mixedDelete(ctx);
  const ofC = identifiers.c!;
  expect(identifiersIn(body), `data lists both subscriptions of the subscriber named only by subscriberId (${ofC.join(', ')})`).toEqual(expect.arrayContaining(ofC));
  await eventually(async () => {
    const left = await listedIdentifiers(ctx.provision, topicKey);
    for (const identifier of ofC) expect(left, `subscription ${identifier} of the subscriber named only by subscriberId is removed`).not.toContain(identifier);
    expect(left, 'another subscriber’s subscription is kept').toContain(identifiers.d![0]);
  }, { timeoutMs: ctx.target.timeouts.eventuallyMs });
});

conformance('TS-03', 'a partial success answers 2xx, reports unknown subscribers as SUBSCRIBER_NOT_FOUND and still removes the rest', async (ctx) => {
  const { res, body, unknown, topicKey, identifiers } = await mixedDelete(ctx);
  // the spec leaves the success status open: any 2xx (200 deployed, 207 Multi-Status, …) is a success
  expect(res.status, `partial success (3 of 5 entries succeed) answers 2xx, got ${res.status}`).toBeGreaterThanOrEqual(200);
  expect(res.status, `partial success (3 of 5 entries succeed) answers 2xx, got ${res.status}`).toBeLessThan(300);
  expectEntryErrors(body, unknown, 'SUBSCRIBER_NOT_FOUND', 'an unknown subscriber in the request');
  expect(body.errors?.length, `errors[] lists only the 2 unknown subscribers, got ${JSON.stringify(body.errors)}`).toBe(2);
  expect(body.meta?.failed, 'meta.failed counts the 2 unknown subscribers').toBe(2);
  await eventually(async () => {
    const left = await listedIdentifiers(ctx.provision, topicKey);
    expect(left, 'every named existing subscription is removed despite the failed entries; only the unnamed one is left').toEqual(identifiers.d);
  }, { timeoutMs: ctx.target.timeouts.eventuallyMs });
});

conformance('TS-08', 'a partial success answers 200, as the deployed service does', async (ctx) => {
  const { res } = await mixedDelete(ctx);
  expect(res.status, 'partial success (3 of 5 entries succeed): the deployed service answers 200').toBe(200);
});

conformance('TS-04', 'meta.totalCount equals successful + failed and the number of entries sent, each matching at most one subscription', async (ctx) => {
  const topic = await subscribedTopic(ctx, ['a', 'b']);
  const subscriptions = [{ identifier: topic.identifiers.a![0]! }, { subscriberId: topic.subscriber.b! }, { subscriberId: ghosts(ctx.ids, 1)[0]! }];
  const res = await deleteSubscriptions(ctx.api, topic.topicKey, { subscriptions });
  const body = (res.json ?? {}) as DeleteResult;
  const entries = subscriptions.length;
  const meta = body.meta ?? {};
  expect(meta.totalCount, `meta.totalCount is the number of entries sent (${entries}), got meta ${JSON.stringify(body.meta)}`).toBe(entries);
  expect((meta.successful ?? NaN) + (meta.failed ?? NaN), `meta.successful + meta.failed equals meta.totalCount, got meta ${JSON.stringify(body.meta)}`).toBe(meta.totalCount);
});

conformance('TS-04', 'entries naming neither identifier nor subscriberId still count: totalCount equals successful + failed and the entries sent', async (ctx) => {
  const { topicKey } = await subscribedTopic(ctx, ['a']);
  // both fields of an entry are optional (spec), so {} is a well-formed entry that matches no subscription; sent alone
  // (the deployed service counts such entries as failed when no entry names anything)
  const subscriptions = [{}, {}];
  const res = await deleteSubscriptions(ctx.api, topicKey, { subscriptions });
  expect(res.status, `two entries that name nothing are processed (2xx, or the 400 whose body carries the result: TS-08), got ${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(500);
  const meta = ((res.json ?? {}) as DeleteResult).meta ?? {};
  expect(meta.totalCount, `meta.totalCount is the number of entries sent (${subscriptions.length}), got ${res.text.slice(0, 300)}`).toBe(subscriptions.length);
  expect((meta.successful ?? NaN) + (meta.failed ?? NaN), `meta.successful + meta.failed equals meta.totalCount, got meta ${JSON.stringify(meta)}`).toBe(meta.totalCount);
});
