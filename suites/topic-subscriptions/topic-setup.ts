// Shared state for the TS suites: a topic with subscribed subscribers, and DELETE /v2/topics/{topicKey}/subscriptions.
import { expect } from 'vitest';
import type { ApiClient, ApiResponse } from '../../harness/http/api-client.ts';
import type { IdFactory } from '../../harness/conformance/ids.ts';
import type { Provisioner } from '../../fixtures/provision.ts';

export interface DeleteResult {
  data?: { identifier?: string; subscriber?: { subscriberId?: string }; contextKeys?: unknown }[];
  meta?: { totalCount?: number; successful?: number; failed?: number };
  errors?: { subscriberId?: string; code?: string; message?: unknown }[];
}

interface Setup {
  api: ApiClient;
  provision: Provisioner;
  ids: IdFactory;
  notVerified(reason: string): never;
}

export const subscriptionsPath = (topicKey: string) => `/v2/topics/${encodeURIComponent(topicKey)}/subscriptions`;

export function deleteSubscriptions(api: ApiClient, topicKey: string, body: unknown): Promise<ApiResponse> {
  return api.delete(subscriptionsPath(topicKey), { body });
}

/** The identifiers of every subscription the topic lists, grouped by subscriber id. */
export async function subscriptionsBySubscriber(provision: Provisioner, topicKey: string): Promise<Map<string, string[]>> {
  const bySubscriber = new Map<string, string[]>();
  for (const s of await provision.listSubscriptions(topicKey)) {
    const id = s.subscriber?.subscriberId ?? '';
    bySubscriber.set(id, [...(bySubscriber.get(id) ?? []), s.identifier]);
  }
  return bySubscriber;
}

export async function listedIdentifiers(provision: Provisioner, topicKey: string): Promise<string[]> {
  return (await provision.listSubscriptions(topicKey)).map((s) => s.identifier).sort();
}

/** Unknown subscriber ids: run-prefixed, never created. */
export function ghosts(ids: IdFactory, count: number): string[] {
  return Array.from({ length: count }, () => ids.slug('ghost'));
}

/**
 * A topic with subscribers `names`, each subscribed once (default identifier); `twice` names one of them that
 * is subscribed a second time under another identifier. Returns each subscriber's subscription identifiers.
 */
export async function subscribedTopic(
  { provision, ids, notVerified }: Setup,
  names: readonly string[],
  twice?: string,
): Promise<{ topicKey: string; subscriber: Record<string, string>; identifiers: Record<string, string[]> }> {
  const { key: topicKey } = await provision.topic();
  const subscriber: Record<string, string> = {};
  for (const name of names) subscriber[name] = (await provision.subscriber({ subscriberId: ids.slug(`sub-${name}`) })).subscriberId;
  const entries: (string | { identifier: string; subscriberId: string })[] = names.map((n) => subscriber[n]!);
  // a second identifier for the same subscriber, still `<topic part>:<subscriber part>`
  if (twice) entries.push({ identifier: `${topicKey}-alt:${subscriber[twice]}`, subscriberId: subscriber[twice]! });
  await provision.subscribe(topicKey, entries);

  const listed = await subscriptionsBySubscriber(provision, topicKey);
  const identifiers: Record<string, string[]> = {};
  for (const name of names) {
    const expected = name === twice ? 2 : 1;
    const got = listed.get(subscriber[name]!) ?? [];
    if (got.length !== expected) {
      notVerified(`setup: subscriber "${name}" should hold ${expected} subscription(s) in topic ${topicKey}, the listing shows ${got.length}`);
    }
    identifiers[name] = got;
  }
  return { topicKey, subscriber, identifiers };
}

/** Checks one `errors[]` entry per unknown subscriber, with the code, its subscriberId and a message. */
export function expectEntryErrors(body: DeleteResult, subscriberIds: string[], code: string, why: string): void {
  expect(Array.isArray(body.errors), `${why}: the body must carry an errors array, got ${JSON.stringify(body.errors)}`).toBe(true);
  for (const subscriberId of subscriberIds) {
    const entries = (body.errors ?? []).filter((e) => e.subscriberId === subscriberId);
    expect(entries.length, `${why}: errors[] must hold exactly one entry with subscriberId "${subscriberId}", got ${JSON.stringify(body.errors)}`).toBe(1);
    expect(entries[0]?.code, `${why}: the code of the errors[] entry for "${subscriberId}"`).toBe(code);
    expect(typeof entries[0]?.message === 'string' && entries[0].message.length > 0, `${why}: the errors[] entry for "${subscriberId}" must carry a message, got ${JSON.stringify(entries[0]?.message)}`).toBe(true);
  }
}

export function identifiersIn(body: DeleteResult): string[] {
  return (body.data ?? []).map((s) => s.identifier ?? '').sort();
}
