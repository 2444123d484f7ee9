// One read-only request before a run that changes things: an unreachable target ends it with a clear message.
import { ApiClient, ExchangeFailed } from '../http/api-client.ts';
import type { TargetProfile } from '../target-profile.ts';

/** Why the target cannot be reached (pre-flight `GET /v1/environments`, at most 5 s), or undefined when it answered at all. */
export async function unreachable(profile: TargetProfile): Promise<string | undefined> {
  const api = new ApiClient({ ...profile, timeouts: { ...profile.timeouts, requestMs: Math.min(profile.timeouts.requestMs, 5_000) } });
  try {
    await api.get('/v1/environments');
    return undefined;
  } catch (error) {
    // an oversized body is still an answer
    if (error instanceof ExchangeFailed && error.exchange.errorKind !== 'too-large') return `unreachable (pre-flight GET /v1/environments): ${error.message}`;
    if (error instanceof ExchangeFailed) return undefined;
    throw error;
  }
}
