// The signing flags of `run --bundle` and `bundle`, checked before any work so a bad key or a missing identity
// never costs a whole run.
import type { Command } from 'commander';
import { checkKeylessIdentity, readSigningKey, SigningError, type SigningMethod } from '../certify/sign-attestation.ts';
import { UsageError } from './cli-error.ts';

export interface SigningFlags {
  signKey?: string;
  sign?: string;
  fulcioUrl?: string;
  rekorUrl?: string;
}

export function addSigningOptions(command: Command): Command {
  return command
    .option('--sign-key <pem>', 'sign the bundle with this private key (PEM, ECDSA P-256 or Ed25519): an in-toto attestation as a Sigstore bundle')
    .option('--sign <method>', 'keyless: sign with the ambient OIDC identity (GitHub Actions, SIGSTORE_ID_TOKEN), Fulcio and Rekor')
    .option('--fulcio-url <url>', 'keyless: the Fulcio instance (default https://fulcio.sigstore.dev)')
    .option('--rekor-url <url>', 'keyless: the Rekor instance (default https://rekor.sigstore.dev)');
}

/** The signing method the flags ask for, or undefined; a usage error names the flag that is wrong. */
export function signingMethod(flags: SigningFlags, env: Record<string, string | undefined>): SigningMethod | undefined {
  if (flags.sign !== undefined && flags.sign !== 'keyless') throw new UsageError(`--sign takes "keyless" (for a key use --sign-key FILE), got "${flags.sign}"`);
  if (flags.sign && flags.signKey) throw new UsageError('--sign keyless and --sign-key are two ways to sign: give one');
  if (!flags.sign && (flags.fulcioUrl || flags.rekorUrl)) throw new UsageError('--fulcio-url and --rekor-url apply to --sign keyless only');
  try {
    if (flags.signKey) return { kind: 'key', key: readSigningKey(flags.signKey) };
    if (!flags.sign) return undefined;
    checkKeylessIdentity(env);
    return { kind: 'keyless', env, ...(flags.fulcioUrl ? { fulcioUrl: flags.fulcioUrl } : {}), ...(flags.rekorUrl ? { rekorUrl: flags.rekorUrl } : {}) };
  } catch (error) {
    if (error instanceof SigningError) throw new UsageError(error.message);
    throw error;
  }
}
