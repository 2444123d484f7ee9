// After the suites: retry every removal that failed, then remove whatever still carries the run prefix and can be
// found (environment variables are listable by key). What remains is the run's leak audit.
import type { Leak } from '../../report/test-record.ts';
import { DELETED_STATUSES } from '../conformance/cleanup.ts';
import { ApiClient, ExchangeFailed, type Identity } from '../http/api-client.ts';
import type { TargetProfile } from '../target-profile.ts';

const GIVE_UP_AFTER = 3;
/** The sweep is the last chance to remove what a test left: a DELETE lost to the network is sent again. */
const SWEEP_TRANSPORT_RETRIES = 3;

export interface SweepResult {
  /** Removed by the sweep: things a test left behind. */
  removed: string[];
  /** Could not be removed: the leak audit. */
  remaining: string[];
}

export async function finalSweep(profile: TargetProfile, leaks: { test: string; leak: Leak }[]): Promise<SweepResult> {
  const api = new ApiClient(profile);
  const removed: string[] = [];
  const remaining: string[] = [];
  // A target that stopped answering gets no more attempts: each would only wait out timeouts.requestMs.
  let unanswered = 0;
  const attempt = async (label: string, path: string, as: Identity, regional = false) => {
    if (unanswered >= GIVE_UP_AFTER) return void remaining.push(`${label}: not attempted, the target stopped answering`);
    try {
      const res = await api.delete(path, { as, regional, transportRetries: SWEEP_TRANSPORT_RETRIES });
      unanswered = 0;
      (DELETED_STATUSES.includes(res.status) ? removed : remaining).push(DELETED_STATUSES.includes(res.status) ? label : `${label}: DELETE ${path} answered ${res.status}`);
    } catch (error) {
      unanswered += 1;
      remaining.push(`${label}: ${error instanceof ExchangeFailed ? error.message : String(error)}`);
    }
  };

  for (const { test, leak } of leaks) {
    if (leak.retry) await attempt(`${leak.label} (left by "${test}")`, leak.retry.path, leak.retry.as, leak.retry.regional);
    else remaining.push(`${leak.label} (left by "${test}"): ${leak.error}`);
  }
  for (const key of unanswered >= GIVE_UP_AFTER ? [] : await prefixedVariables(api, profile.runPrefix)) {
    await attempt(`environment variable ${key}`, `/v1/environment-variables/${encodeURIComponent(key)}`, 'primary');
  }
  return { removed, remaining };
}

/** Environment variables whose key carries the run prefix (the provisioner upper-cases it for keys). */
async function prefixedVariables(api: ApiClient, prefix: string): Promise<string[]> {
  try {
    const wanted = prefix.toUpperCase().replaceAll('-', '_');
    const res = await api.get('/v1/environment-variables', { query: { search: wanted }, transportRetries: SWEEP_TRANSPORT_RETRIES });
    if (res.status !== 200 || !Array.isArray(res.data)) return [];
    return (res.data as { key?: unknown }[])
      .map((v) => v.key)
      .filter((k): k is string => typeof k === 'string' && (k.startsWith(prefix) || k.toUpperCase().replaceAll('-', '_').startsWith(wanted)));
  } catch {
    return [];
  }
}
