// Observing whether a trigger ran, through provisioning operations only: recipient/actor subscriber objects
// are created by a run (GET /v2/subscribers/{id}/preferences: 200 exists, 404 not) and the workflow's
// `lastTriggeredAt` is set (GET /v2/workflows/{workflowId}).
import { expect } from 'vitest';
import type { Provisioner, Workflow } from '../../fixtures/provision.ts';
import type { IdFactory } from '../../harness/conformance/ids.ts';
import { eventually, settle } from '../../harness/eventually.ts';
import type { ApiClient } from '../../harness/http/api-client.ts';
import type { TargetProfile } from '../../harness/target-profile.ts';

export const TRIGGER_PATH = '/v1/events/trigger';

export interface RecipientObject {
  subscriberId: string;
  firstName: string;
  email: string;
}

/** Fresh subscriber objects (ids never used before) whose removal is registered, since a run creates them. */
export function freshRecipients(ids: IdFactory, provision: Provisioner, count: number, label = 'rcpt'): RecipientObject[] {
  return Array.from({ length: count }, () => {
    const subscriberId = ids.slug(label);
    provision.forgetSubscriber(subscriberId);
    return { subscriberId, firstName: 'Conformance', email: `${subscriberId}@example.com` };
  });
}

/** True when the subscriber exists (200), false when the target says it does not (404). */
export async function subscriberExists(api: ApiClient, subscriberId: string): Promise<boolean> {
  const res = await api.get(`/v2/subscribers/${encodeURIComponent(subscriberId)}/preferences`);
  if (res.status === 200) return true;
  if (res.status === 404) return false;
  throw new Error(`GET /v2/subscribers/${subscriberId}/preferences answered ${res.status}; expected 200 (exists) or 404 (does not)`);
}

/** Which of the ids exist, asked a few at a time. */
export async function existingSubscribers(api: ApiClient, subscriberIds: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (let i = 0; i < subscriberIds.length; i += 10) {
    const batch = subscriberIds.slice(i, i + 10);
    const exists = await Promise.all(batch.map((id) => subscriberExists(api, id)));
    batch.forEach((id, j) => exists[j] && found.push(id));
  }
  return found;
}

/** The workflow's `lastTriggeredAt` (null or absent before any run). */
export async function lastTriggeredAt(api: ApiClient, wf: Workflow): Promise<unknown> {
  const res = await api.get(`/v2/workflows/${encodeURIComponent(wf.workflowId)}`);
  expect(res.status, `reading workflow ${wf.workflowId} back (GET /v2/workflows/{workflowId}) to observe lastTriggeredAt`).toBe(200);
  return (res.data as { lastTriggeredAt?: unknown }).lastTriggeredAt ?? null;
}

/**
 * Asserts that a rejected trigger had no effect: after settling, none of the subscriber objects it named exists
 * and the workflow's `lastTriggeredAt` still has the value read before the request.
 */
export async function expectNothingTriggered(
  ctx: { api: ApiClient; target: TargetProfile },
  check: { wf: Workflow; before: unknown; subscriberIds: readonly string[]; why: string },
): Promise<void> {
  await settle(ctx.target.timeouts.settleMs);
  const created = await existingSubscribers(ctx.api, check.subscriberIds);
  expect(created, `${check.why} must trigger nothing, yet the subscriber objects it named were created: ${created.slice(0, 5).join(', ')}`).toEqual([]);
  expect(await lastTriggeredAt(ctx.api, check.wf), `${check.why} must trigger nothing, yet the workflow's lastTriggeredAt changed`).toEqual(check.before);
}

/** Positive control: a run does create the subscriber objects it names (so their absence elsewhere means something). */
export async function expectTriggered(ctx: { api: ApiClient; target: TargetProfile }, subscriberIds: readonly string[], why: string): Promise<void> {
  await eventually(
    async () => {
      const created = await existingSubscribers(ctx.api, subscriberIds);
      const missing = subscriberIds.filter((id) => !created.includes(id));
      expect(missing, `${why}: every subscriber object in \`to\` is created by the run; still missing ${missing.length}: ${missing.slice(0, 5).join(', ')}`).toEqual([]);
    },
    { timeoutMs: ctx.target.timeouts.eventuallyMs },
  );
}
