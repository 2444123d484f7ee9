// TS-07: subscription identifiers are `<topic-key part>:<subscriber-id part>`, contextKeys items `<type>:<id>`.
import { expect } from 'vitest';
import { conformance } from '../../fixtures/conformance.ts';
import { deleteSubscriptions, subscribedTopic, type DeleteResult } from '../../fixtures/topic-subscriptions/topic-setup.ts';

const CONTEXT_KEY = /^[^:]+:.+$/;

function expectIdentifierShape(identifier: unknown, topicKey: string, subscriberId: string, where: string): void {
  const text = String(identifier);
  const colon = text.indexOf(':');
  expect(colon > 0 && colon < text.length - 1, `${where}: identifier is a topic-key part and a subscriber-id part joined by ":", got ${JSON.stringify(identifier)}`).toBe(true);
  expect(text.slice(0, colon), `${where}: the part before ":" names the topic key "${topicKey}"`).toContain(topicKey);
  expect(text.slice(colon + 1), `${where}: the part after ":" names the subscriber id "${subscriberId}"`).toContain(subscriberId);
}

conformance('TS-07', 'subscription identifiers join the topic key and subscriber id with a colon and contextKeys are type:id pairs', async (ctx) => {
  const { topicKey, subscriber, identifiers } = await subscribedTopic(ctx, ['a']);
  const subscriberId = subscriber.a!;
  expectIdentifierShape(identifiers.a![0], topicKey, subscriberId, 'the default identifier in the topic listing');

  const res = await deleteSubscriptions(ctx.api, topicKey, { subscriptions: [{ subscriberId }] });
  const data = (res.json as DeleteResult | undefined)?.data ?? [];
  expect(data.length, `the delete lists the removed subscription in data, got ${res.text.slice(0, 300)}`).toBe(1);
  // The provisioning operations cannot create contexts, so contextKeys is usually empty: say so rather than imply a check.
  const contextKeyCount = data.reduce((n, s) => n + (Array.isArray(s.contextKeys) ? s.contextKeys.length : 0), 0);
  if (contextKeyCount === 0) ctx.note('no contextKeys items were returned, so only the identifier shape could be checked');
  for (const subscription of data) {
    expectIdentifierShape(subscription.identifier, topicKey, subscriberId, 'the removed subscription in data');
    if (subscription.contextKeys === undefined) continue;
    expect(Array.isArray(subscription.contextKeys), `contextKeys is an array of strings, got ${JSON.stringify(subscription.contextKeys)}`).toBe(true);
    for (const key of subscription.contextKeys as unknown[]) {
      expect(typeof key === 'string' && CONTEXT_KEY.test(key), `every contextKeys item is a "<type>:<id>" pair, got ${JSON.stringify(key)}`).toBe(true);
    }
  }
});
