// Replaces every configured secret by a placeholder before anything is recorded, printed or written.
import { SECRET_PLACEHOLDERS } from '../config/env-vars.ts';
import type { NetworkSettings, TargetKeys } from '../config/settings.ts';

export interface Secret {
  value: string;
  /** Environment variable a reproducer should read the secret from. */
  placeholder: string;
}

export class Redactor {
  private readonly secrets: Secret[];

  constructor(secrets: Secret[]) {
    // Longest first, so a key that contains another is replaced whole.
    this.secrets = secrets.filter((s) => s.value.length > 0).sort((a, b) => b.value.length - a.value.length);
  }

  /** For header values and reproducers: `ApiKey ${CONFORMANCE_API_KEY}`. */
  text(input: string): string {
    let out = input;
    for (const secret of this.secrets) out = out.split(secret.value).join(`\${${secret.placeholder}}`);
    return out;
  }

  /** For bodies: the secret disappears entirely. */
  body(input: string): string {
    let out = input;
    for (const secret of this.secrets) out = out.split(secret.value).join('[REDACTED]');
    return out;
  }

  /** The secret values themselves, for tests that search artifacts for leaks. */
  get values(): string[] {
    return this.secrets.map((s) => s.value);
  }
}

/** The redactor of a run: every key of the target, each replaced by the variable a reproducer reads it from. */
export function redactorFor(target: { keys: TargetKeys; network?: NetworkSettings }): Redactor {
  return new Redactor(secretsOf(target));
}

/** A target's keys as secrets (a run over several targets, such as the fault proof's, redacts all of them). */
export function secretsOf(target: { keys: TargetKeys; network?: NetworkSettings }): Secret[] {
  const { primary, secondary, restricted } = target.keys;
  return [
    { value: primary, placeholder: SECRET_PLACEHOLDERS.apiKey },
    ...(secondary ? [{ value: secondary, placeholder: SECRET_PLACEHOLDERS.secondaryApiKey }] : []),
    ...(restricted ? [{ value: restricted, placeholder: SECRET_PLACEHOLDERS.restrictedApiKey }] : []),
    ...headerSecrets(target.network?.headers),
  ];
}

/**
 * Every --header value is a secret: the harness cannot tell a tenant name from a WAF token, so each is shown as the
 * variable a reproducer reads it from (`X-Waf-Token: ${CONFORMANCE_HEADER_X_WAF_TOKEN}`).
 */
export function headerSecrets(headers: Record<string, string> | undefined): Secret[] {
  return Object.entries(headers ?? {}).map(([name, value]) => ({ value, placeholder: headerPlaceholder(name) }));
}

export function headerPlaceholder(name: string): string {
  return `CONFORMANCE_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}
