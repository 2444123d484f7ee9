// TS-05, TS-06: at most 100 entries per delete, in `subscriptions` and in the deprecated `subscriberIds`.
import { expect } from 'vitest';
import { conformance, type ConformanceContext } from '../../fixtures/conformance.ts';
import { eventually, settle } from '../../harness/eventually.ts';
import { deleteSubscriptions, expectEntryErrors, ghosts, listedIdentifiers, subscribedTopic, type DeleteResult } from '../../fixtures/topic-subscriptions/topic-setup.ts';

type Field = 'subscriptions' | 'subscriberIds';

/**
 * Three real subscriptions padded with unknown subscribers to `count` entries: first 101 (must be rejected and
 * remove nothing), then 100 (must be accepted; the three real ones are removed, which shows the first check meant something).
 */
async function checkCap(ctx: ConformanceContext, field: Field): Promise<void> {
  const { api, provision, target } = ctx;
  const { topicKey, subscriber, identifiers } = await subscribedTopic(ctx, ['a', 'b', 'c']);
  const named = [identifiers.a![0]!, identifiers.b![0]!, identifiers.c![0]!].sort();
  const padding = ghosts(ctx.ids, 98);
  const body = (count: number) =>
    field === 'subscriptions'
      ? { subscriptions: [{ identifier: named[0] }, { identifier: named[1] }, { subscriberId: subscriber.c }, ...padding.slice(0, count - 3).map((subscriberId) => ({ subscriberId }))] }
      : { subscriberIds: [subscriber.a, subscriber.b, subscriber.c, ...padding.slice(0, count - 3)] };

  const over = await deleteSubscriptions(api, topicKey, body(101));
  expect(over.status, `101 entries in \`${field}\` exceed the cap of 100 and are rejected with 4xx`).toBeGreaterThanOrEqual(400);
  expect(over.status, `101 entries in \`${field}\` are a client error (4xx), not ${over.status}`).toBeLessThan(500);
  await settle(target.timeouts.settleMs);
  expect(await listedIdentifiers(provision, topicKey), 'a rejected over-cap request removes nothing: every subscription it named still exists').toEqual(named);

  // accepted = processed: 2xx, or the result body {data, meta, errors} (what a 400 for "every entry failed" carries)
  const exact = await deleteSubscriptions(api, topicKey, body(100));
  const processed = (exact.status >= 200 && exact.status < 300) || (exact.status < 500 && (exact.json as DeleteResult | undefined)?.meta != null);
  expect(processed, `exactly 100 entries in \`${field}\` are accepted and processed (3 succeed, 97 unknown subscribers), got ${exact.status} ${exact.text.slice(0, 200)}`).toBe(true);
  await eventually(async () => {
    expect(await listedIdentifiers(provision, topicKey), 'the accepted 100-entry request removes the subscriptions it named').toEqual([]);
  }, { timeoutMs: target.timeouts.eventuallyMs });
}

conformance('TS-05', 'rejects 101 subscriptions entries without removing any, and accepts exactly 100', (ctx) => checkCap(ctx, 'subscriptions'));

conformance('TS-06', 'the deprecated subscriberIds removes subscriptions, rejects 101 ids without removing any and accepts 100', (ctx) => checkCap(ctx, 'subscriberIds'));

// The official client's model is a list of strings: "" is one, which names no subscriber (TS-03), as deployed.
conformance(['TS-06', 'CLIENT-04'], 'an empty string in subscriberIds fails as an unknown subscriber while the other ids are removed', async (ctx) => {
  const { topicKey, subscriber } = await subscribedTopic(ctx, ['a']);
  const res = await deleteSubscriptions(ctx.api, topicKey, { subscriberIds: ['', subscriber.a] });
  expect(res.status, `subscriberIds ["", a subscribed id] is processed as a partial success, got ${res.status} ${res.text.slice(0, 300)}`).toBe(200);
  const body = (res.json ?? {}) as DeleteResult;
  expect(body.meta, 'one entry removed, the empty one failed').toEqual(expect.objectContaining({ totalCount: 2, successful: 1, failed: 1 }));
  expectEntryErrors(body, [''], 'SUBSCRIBER_NOT_FOUND', 'the empty subscriber id');
  await eventually(async () => {
    expect(await listedIdentifiers(ctx.provision, topicKey), 'the subscribed id is removed').toEqual([]);
  }, { timeoutMs: ctx.target.timeouts.eventuallyMs });
});
