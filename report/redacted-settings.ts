// The resolved settings as a report or bundle records them: every key replaced, whether one was given still visible.
import { basename } from 'node:path';
import { withoutCredentials } from '../config/network-settings.ts';
import type { Settings } from '../config/settings.ts';

export const REDACTED = '[REDACTED]';

/** The resolved settings as run, with every key replaced; whether a key was given stays visible. */
export function redactSettings(settings: Settings): unknown {
  const copy = structuredClone(settings) as Settings & { target: Record<string, unknown> };
  for (const key of ['apiKey', 'secondaryApiKey', 'restrictedApiKey'] as const) {
    if (copy.target[key] !== undefined) copy.target[key] = REDACTED;
  }
  // Header values (gateway tokens) and proxy passwords are secrets like the keys: names stay, values go.
  if (copy.network?.headers) copy.network.headers = Object.fromEntries(Object.keys(copy.network.headers).map((k) => [k, REDACTED]));
  for (const proxy of ['httpProxy', 'httpsProxy'] as const) if (copy.network?.[proxy]) copy.network[proxy] = withoutCredentials(copy.network[proxy]!);
  // Container environment values are the candidate's secrets (passwords, tokens): only their names are kept.
  if (copy.target.imageEnv) copy.target.imageEnv = Object.fromEntries(Object.keys(copy.target.imageEnv as object).map((k) => [k, REDACTED]));
  // why: a bundle travels; the signer's directories (home, CI workspace) are nobody else's business
  if (copy.run?.reportDir !== undefined) copy.run.reportDir = basename(copy.run.reportDir);
  if (copy.run?.expectations !== undefined) copy.run.expectations = basename(copy.run.expectations);
  return copy;
}
