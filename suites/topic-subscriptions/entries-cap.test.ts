// TS-05, TS-06: at most 100 entries per delete, in `subscriptions` and in the deprecated `subscriberIds`.
import { expect } from 'vitest';
import { conformance, type ConformanceContext } from '../../fixtures/conformance.ts';
import { eventually, settle } from '../../harness/eventually.ts';
import type { ApiResponse } from '../../harness/http/api-client.ts';
import { deleteSubscriptions, expectEntryErrors, ghosts, listedIdentifiers, subscribedTopic, type DeleteResult } from '../../fixtures/topic-subscriptions/topic-setup.ts';

/** The forms a 100-entry delete can take: each must be capped at 100 entries, whatever its entries name. */
const FORMS = {
  'identifier entries': 'subscriptions',
  'subscriberId entries': 'subscriptions',
  'mixed identifier and subscriberId entries': 'subscriptions',
  'deprecated subscriberIds': 'subscriberIds',
} as const;
type Form = keyof typeof FORMS;

/** A body of `count` entries in `form`: the three real subscriptions first, padded with names that match nothing. */
function bodyOf(form: Form, count: number, topicKey: string, real: { identifiers: string[]; subscriberIds: string[] }, padding: string[]): Record<string, unknown> {
  const pad = padding.slice(0, count - 3);
  switch (form) {
    case 'identifier entries':
      return { subscriptions: [...real.identifiers, ...pad.map((ghost) => `${topicKey}:${ghost}`)].map((identifier) => ({ identifier })) };
    case 'subscriberId entries':
      return { subscriptions: [...real.subscriberIds, ...pad].map((subscriberId) => ({ subscriberId })) };
    case 'mixed identifier and subscriberId entries': {
      // about half of each kind, so a cap that counts one kind only, or each kind apart, lets 101 through
      const half = Math.floor(count / 2) - 2;
      const byIdentifier = [...real.identifiers.slice(0, 2), ...pad.slice(0, half).map((ghost) => `${topicKey}:${ghost}`)].map((identifier) => ({ identifier }));
      const bySubscriber = [real.subscriberIds[2]!, ...pad.slice(half)].map((subscriberId) => ({ subscriberId }));
      return { subscriptions: [...byIdentifier, ...bySubscriber] };
    }
    case 'deprecated subscriberIds':
      return { subscriberIds: [...real.subscriberIds, ...pad] };
  }
}

/** Accepted = processed: 2xx, or the result body {data, meta, errors} (what a 400 for "every entry failed" carries). */
const processed = (res: ApiResponse) => (res.status >= 200 && res.status < 300) || (res.status < 500 && (res.json as DeleteResult | undefined)?.meta != null);

/**
 * Three real subscriptions padded with names that match nothing to `count` entries: first 101 (must be rejected and
 * remove nothing), then 100 (must be accepted; the three real ones are removed, which shows the first check meant something).
 */
async function checkCap(ctx: ConformanceContext, form: Form): Promise<void> {
  const { api, provision, target } = ctx;
  const { topicKey, subscriber, identifiers } = await subscribedTopic(ctx, ['a', 'b', 'c']);
  const real = { identifiers: [identifiers.a![0]!, identifiers.b![0]!, identifiers.c![0]!], subscriberIds: [subscriber.a!, subscriber.b!, subscriber.c!] };
  const named = [...real.identifiers].sort();
  const padding = ghosts(ctx.ids, 98);

  const over = await deleteSubscriptions(api, topicKey, bodyOf(form, 101, topicKey, real, padding));
  expect(over.status, `101 ${form} exceed the cap of 100 and are rejected with 4xx`).toBeGreaterThanOrEqual(400);
  expect(over.status, `101 ${form} are a client error (4xx), not ${over.status}`).toBeLessThan(500);
  await settle(target.timeouts.settleMs);
  expect(await listedIdentifiers(provision, topicKey), 'a rejected over-cap request removes nothing: every subscription it named still exists').toEqual(named);

  const exact = await deleteSubscriptions(api, topicKey, bodyOf(form, 100, topicKey, real, padding));
  expect(processed(exact), `exactly 100 ${form} are accepted and processed (3 succeed, 97 name nothing), got ${exact.status} ${exact.text.slice(0, 200)}`).toBe(true);
  await eventually(async () => {
    expect(await listedIdentifiers(provision, topicKey), 'the accepted 100-entry request removes the subscriptions it named').toEqual([]);
  }, { timeoutMs: target.timeouts.eventuallyMs });
}

for (const form of (Object.keys(FORMS) as Form[]).filter((f) => FORMS[f] === 'subscriptions')) {
  conformance('TS-05', `rejects 101 subscriptions entries (${form}) without removing any, and accepts exactly 100`, (ctx) => checkCap(ctx, form));
}

conformance('TS-06', 'the deprecated subscriberIds removes subscriptions, rejects 101 ids without removing any and accepts 100', (ctx) => checkCap(ctx, 'deprecated subscriberIds'));

// Each array has its own cap: 100 in `subscriptions` and 100 in `subscriberIds` together are within both.
conformance(['TS-05', 'TS-06'], 'accepts 100 subscriptions entries and 100 subscriberIds in one request: the two arrays do not share one cap', async (ctx) => {
  const { api, provision, target } = ctx;
  const { topicKey, subscriber, identifiers } = await subscribedTopic(ctx, ['a', 'b']);
  const [first, second] = [ghosts(ctx.ids, 99), ghosts(ctx.ids, 99)];
  const body = { subscriptions: [{ identifier: identifiers.a![0]! }, ...first.map((subscriberId) => ({ subscriberId }))], subscriberIds: [subscriber.b, ...second] };
  const res = await deleteSubscriptions(api, topicKey, body);
  expect(processed(res), `100 entries in each of subscriptions and subscriberIds are each within their cap of 100: accepted and processed, got ${res.status} ${res.text.slice(0, 200)}`).toBe(true);
  await eventually(async () => {
    expect(await listedIdentifiers(provision, topicKey), 'the accepted request removes the subscriptions named in both arrays').toEqual([]);
  }, { timeoutMs: target.timeouts.eventuallyMs });
});

// The official client's model is a list of strings: "" is one, which names no subscriber (TS-03), as deployed.
conformance(['TS-06', 'CLIENT-04'], 'an empty string in subscriberIds fails as an unknown subscriber while the other ids are removed', async (ctx) => {
  const { topicKey, subscriber } = await subscribedTopic(ctx, ['a']);
  const res = await deleteSubscriptions(ctx.api, topicKey, { subscriberIds: ['', subscriber.a] });
  expect(res.status >= 200 && res.status < 300, `subscriberIds ["", a subscribed id] is processed as a partial success (2xx), got ${res.status} ${res.text.slice(0, 300)}`).toBe(true);
  const body = (res.json ?? {}) as DeleteResult;
  expect(body.meta, 'one entry removed, the empty one failed').toEqual(expect.objectContaining({ totalCount: 2, successful: 1, failed: 1 }));
  expectEntryErrors(body, [''], 'SUBSCRIBER_NOT_FOUND', 'the empty subscriber id');
  await eventually(async () => {
    expect(await listedIdentifiers(ctx.provision, topicKey), 'the subscribed id is removed').toEqual([]);
  }, { timeoutMs: ctx.target.timeouts.eventuallyMs });
});
