// Reading preferences back (GET /v2/subscribers/{id}/preferences, a provisioning operation) and picking entries.
import { expect } from 'vitest';
import type { Workflow } from '../../fixtures/provision.ts';
import type { ApiClient } from '../../harness/http/api-client.ts';

export interface WorkflowEntry {
  enabled: boolean;
  channels: Record<string, boolean>;
  overrides?: { channel: string; source: string }[];
  workflow: { slug: string; identifier: string; name: string; updatedAt?: string };
  updatedAt?: string;
}

export interface Preferences {
  global: { enabled: boolean; channels: Record<string, boolean>; schedule?: Record<string, unknown> };
  workflows: WorkflowEntry[];
}

export const preferencesPath = (subscriberId: string) => `/v2/subscribers/${encodeURIComponent(subscriberId)}/preferences`;

export async function readPreferences(api: ApiClient, subscriberId: string): Promise<Preferences> {
  const res = await api.get<Preferences>(preferencesPath(subscriberId));
  expect(res.status, `reading preferences back (GET /v2/subscribers/${subscriberId}/preferences)`).toBe(200);
  return res.data;
}

/** The subscriber's entry for one workflow, matched by its identifier. */
export function entryOf(prefs: Preferences, wf: Workflow): WorkflowEntry | undefined {
  return prefs.workflows.find((e) => e.workflow?.identifier === wf.workflowId);
}

export function requireEntry(prefs: Preferences, wf: Workflow, where: string): WorkflowEntry {
  const entry = entryOf(prefs, wf);
  expect(entry, `${where}: workflows[] has an entry for workflow ${wf.workflowId}`).toBeDefined();
  return entry!;
}

/** A full 12-hour weekly schedule (every weekday present). */
export function weeklySchedule(hours: { start: string; end: string }[]): Record<string, { isEnabled: boolean; hours: { start: string; end: string }[] }> {
  const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
  return Object.fromEntries(days.map((day, i) => [day, i < 5 ? { isEnabled: true, hours } : { isEnabled: false, hours: [] }]));
}
