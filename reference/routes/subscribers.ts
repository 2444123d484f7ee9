// Subscribers as the trigger and preferences see them: shape checks, upsert, default channels. The subscriber
// operations themselves (provisioning-only) are in provisioning/subscribers.ts.
import type { FieldErrors } from '../errors.ts';
import { CHANNELS, type ChannelFlags, type EnvironmentState, type Subscriber } from '../store.ts';
import { isPlainObject, nowIso, objectId } from '../util.ts';
import { optObject, optString, reqString } from '../validate.ts';

const PROFILE_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone'] as const;

export function allChannels(value: boolean): ChannelFlags {
  const c = {} as ChannelFlags;
  for (const ch of CHANNELS) c[ch] = value;
  return c;
}

/**
 * Validates a subscriber object (trigger recipient, actor, create body); returns errors into `errs`. `nullable`: a
 * null profile field or `data` is accepted (it clears the field); every caller passes it, as SubscriberPayloadDto allows.
 */
export function checkSubscriberShape(errs: FieldErrors, o: Record<string, unknown>, prefix = '', { nullable = false } = {}): void {
  reqString(errs, o, 'subscriberId', prefix);
  for (const f of PROFILE_FIELDS) if (!(nullable && o[f] === null)) optString(errs, o, f, prefix);
  if (!(nullable && o.data === null)) optObject(errs, o, 'data', prefix);
  if (o.channels === undefined) return;
  if (!Array.isArray(o.channels)) return errs.add(prefix + 'channels', 'channels must be an array', o.channels);
  o.channels.forEach((c, i) => {
    const f = `${prefix}channels[${i}].`;
    if (!isPlainObject(c)) return errs.add(f.slice(0, -1), 'each channel must be an object', c);
    optString(errs, c, 'integrationIdentifier', f);
    const credentials = optObject(errs, c, 'credentials', f);
    if (!credentials) return;
    optString(errs, credentials, 'webhookUrl', `${f}credentials.`);
    const tokens = credentials.deviceTokens;
    if (tokens !== undefined && (!Array.isArray(tokens) || !tokens.every((t) => typeof t === 'string'))) {
      errs.add(`${f}credentials.deviceTokens`, 'each value in deviceTokens must be a string', tokens);
    }
  });
}

/** Creates or updates a subscriber from an already validated object. */
export function upsertSubscriber(env: EnvironmentState, o: Record<string, unknown>): { subscriber: Subscriber; created: boolean } {
  const id = o.subscriberId as string;
  const now = nowIso();
  let s = env.subscribers.get(id);
  const created = !s;
  if (!s) {
    s = {
      _id: objectId(),
      subscriberId: id,
      firstName: null,
      lastName: null,
      email: null,
      phone: null,
      avatar: null,
      locale: null,
      timezone: null,
      data: null,
      createdAt: now,
      updatedAt: now,
      globalChannels: allChannels(true),
      globalEnabled: true,
      workflowPrefs: new Map(),
    };
    env.subscribers.set(id, s);
  }
  for (const f of PROFILE_FIELDS) if (typeof o[f] === 'string' || o[f] === null) s[f] = o[f] as string | null;
  if (isPlainObject(o.data)) s.data = o.data;
  if (Array.isArray(o.channels)) s.channels = o.channels;
  s.updatedAt = now;
  return { subscriber: s, created };
}
