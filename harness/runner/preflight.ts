// Before any test: is the target there, is it the Notification API, and does each key belong where the run needs it?
// A set-up mistake found here ends the run as `error` (exit 2) naming the setting; it never becomes a failed rule.
import type { Identity } from '../../config/settings.ts';
import { ApiClient, ExchangeFailed, type ApiResponse } from '../http/api-client.ts';
import { TRANSPORT_FAULTS } from '../http/transport.ts';
import type { TargetProfile } from '../target-profile.ts';
import { REFERENCE_HEADER } from '../../reference/identity.ts';

/** `identifiesAsReference`: the target answered with the reference's header (its value, cut): it is the reference, not a candidate. */
export type PreflightOutcome = { ok: true; lines: string[]; identifiesAsReference?: string } | { ok: false; reason: string };

type KeyIdentity = Exclude<Identity, 'none'>;

/** Where each key is set, as a user would look for it. */
export const KEY_SETTINGS: Record<KeyIdentity, string> = {
  primary: '--api-key / CONFORMANCE_API_KEY',
  secondary: '--secondary-api-key / CONFORMANCE_SECONDARY_API_KEY',
  restricted: '--restricted-api-key / CONFORMANCE_RESTRICTED_API_KEY',
};

const PATH = '/v1/environments';
/** The pre-flight answers fast or not at all: at most this long per request. */
const PREFLIGHT_REQUEST_MS = 5_000;
const PAUSE_BETWEEN_TRIES_MS = 500;

interface Environment {
  _id?: string;
  name?: string;
  _organizationId?: string;
  apiKeys?: { key?: string }[];
}

export async function preflight(profile: TargetProfile, transportRetries: number): Promise<PreflightOutcome> {
  const same = sameKeyTwice(profile);
  if (same) return { ok: false, reason: same };
  const api = new ApiClient({ ...profile, timeouts: { ...profile.timeouts, requestMs: Math.min(profile.timeouts.requestMs, PREFLIGHT_REQUEST_MS) } });
  const lines: string[] = [];
  const homes: Partial<Record<KeyIdentity, Environment>> = {};
  let identifiesAsReference: string | undefined;
  for (const identity of ['primary', 'secondary', 'restricted'] as const) {
    if (!profile.keys[identity]) continue;
    const answer = await listEnvironments(api, identity, transportRetries);
    if (typeof answer === 'string') return { ok: false, reason: answer };
    const refused = refusal(answer, identity, profile);
    if (refused) return { ok: false, reason: refused };
    if (identity === 'primary') {
      const notApi = await notTheApi(answer, api, profile);
      if (notApi) return { ok: false, reason: notApi };
      identifiesAsReference = answer.headers[REFERENCE_HEADER.toLowerCase()]?.slice(0, 64);
    }
    if (answer.status !== 200 || !Array.isArray(answer.data)) {
      lines.push(`Pre-flight: GET ${PATH} with the ${identity} key answered ${answer.status}; continuing (the suites will report what fails)`);
      continue;
    }
    const environments = answer.data as Environment[];
    homes[identity] = environments.find((e) => e.apiKeys?.some((k) => k.key === profile.keys[identity]));
    // The key's own environment lists its keys; the deployed service may list others' too (then the name is a guess).
    const named = homes[identity] ?? environments.find((e) => Array.isArray(e.apiKeys) && e.apiKeys.length > 0);
    if (identity === 'primary') lines.push(`Pre-flight: organization ${environments[0]?._organizationId ?? '?'}, environment ${named?.name ?? '(not identifiable from the key)'}`);
  }
  // Only keys found verbatim in a listing say which environment they belong to: masked or hashed keys decide nothing.
  if (homes.primary?._id && homes.primary._id === homes.secondary?._id) {
    return {
      ok: false,
      reason: `the primary key (${KEY_SETTINGS.primary}) and the secondary key (${KEY_SETTINGS.secondary}) belong to the same environment (${homes.primary.name ?? homes.primary._id}): AUTH-05 needs a key of another environment of the organization`,
    };
  }
  if (identifiesAsReference !== undefined && !profile.embeddedReference) lines.push(`Pre-flight: the target identifies itself as the embedded reference (${REFERENCE_HEADER}: ${identifiesAsReference}): the run cannot certify a candidate`);
  return { ok: true, lines, ...(identifiesAsReference !== undefined ? { identifiesAsReference } : {}) };
}

/** Two settings holding one key: a copy-paste mistake that would read as a broken isolation or a writable read-only key. */
function sameKeyTwice(profile: TargetProfile): string | undefined {
  const given = (['primary', 'secondary', 'restricted'] as const).filter((id) => profile.keys[id]);
  for (const [i, a] of given.entries()) {
    for (const b of given.slice(i + 1)) {
      if (profile.keys[a] === profile.keys[b]) return `the same key is given as the ${a} key (${KEY_SETTINGS[a]}) and as the ${b} key (${KEY_SETTINGS[b]}): each must be a different key`;
    }
  }
  return undefined;
}

/** The answer, or why none came after every try (a transport fault may be the network's: it is tried again). */
async function listEnvironments(api: ApiClient, as: KeyIdentity, transportRetries: number): Promise<ApiResponse | string> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await api.get(PATH, { as });
    } catch (error) {
      if (!(error instanceof ExchangeFailed)) throw error;
      const kind = error.exchange.errorKind;
      // An oversized body is still an answer: the suites will say what is wrong with it.
      if (kind === 'too-large') return { status: 200, headers: {}, text: '', json: undefined, data: undefined, exchange: error.exchange };
      if (!kind || !TRANSPORT_FAULTS.includes(kind) || attempt >= transportRetries) {
        return `target unreachable (pre-flight GET ${error.exchange.url}${attempt > 0 ? `, ${attempt + 1} tries` : ''}): ${error.exchange.error}`;
      }
      await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_TRIES_MS));
    }
  }
}

function refusal(res: ApiResponse, identity: KeyIdentity, profile: TargetProfile): string | undefined {
  if (res.status !== 401 && res.status !== 403) return undefined;
  if (identity === 'primary' && res.status === 403 && !looksLikeApiError(res)) return undefined;
  const what = res.status === 401 ? 'did not accept' : 'refused to let read';
  return `the target ${what} the ${identity} API key (${KEY_SETTINGS[identity]}): GET ${profile.baseUrl}${PATH} answered ${res.status}${messageOf(res)}; check the key and that it belongs to this target`;
}

/** A 404, or an answer that is not JSON, says the base URL is not where the API lives. */
async function notTheApi(res: ApiResponse, api: ApiClient, profile: TargetProfile): Promise<string | undefined> {
  const isJson = res.json !== undefined;
  if (res.status !== 404 && (isJson || res.status >= 500 || res.status === 429)) return undefined;
  if (res.status === 200 && res.text === '' && res.exchange.error) return undefined;
  const what = res.status === 404 ? 'answered 404' : `answered ${res.status} with ${res.headers['content-type'] ?? 'no content type'}, not JSON`;
  const hint = await whereTheApiIs(api, profile);
  return `the base URL (--target / CONFORMANCE_TARGET) ${profile.baseUrl} does not serve the Notification API: GET ${profile.baseUrl}${PATH} ${what}. ${hint}`;
}

/** Tries the base URL's parents and an `/api` prefix; names the first that answers like the API. */
async function whereTheApiIs(api: ApiClient, profile: TargetProfile): Promise<string> {
  const base = new URL(profile.baseUrl);
  const segments = base.pathname.split('/').filter(Boolean);
  const candidates = segments.map((_, i) => `${base.origin}${segments.slice(0, segments.length - 1 - i).map((s) => `/${s}`).join('')}`);
  candidates.push(`${profile.baseUrl}/api`);
  for (const candidate of candidates.slice(0, 3)) {
    const probe = new ApiClient({ ...api.target, baseUrl: candidate });
    const res = await probe.get(PATH).catch(() => undefined);
    if (res && (res.status === 200 || res.status === 401 || res.status === 403) && res.json !== undefined) return `It answers at ${candidate}: use --target ${candidate}.`;
  }
  return 'Give the base URL the API answers under, with its path prefix if it has one (e.g. https://host/api).';
}

function looksLikeApiError(res: ApiResponse): boolean {
  return typeof res.json === 'object' && res.json !== null;
}

function messageOf(res: ApiResponse): string {
  const message = (res.json as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? ` ("${message.slice(0, 120)}")` : '';
}
