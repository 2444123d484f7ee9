// Signs the certification statement as a Sigstore bundle (v0.3, DSSE envelope) with @sigstore/sign: with a local
// PEM key (ECDSA P-256 or Ed25519, offline), or keyless — the ambient OIDC identity, a Fulcio certificate and a
// Rekor entry — where those services are reachable.
import { createHash, createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IdentityProvider, Signature, Signer } from '@sigstore/sign';
import { IN_TOTO_PAYLOAD_TYPE, type Statement } from './attestation.ts';

/** Signing could not happen; the message names the flag, the file or the service. */
export class SigningError extends Error {}

export interface LocalKey {
  privateKey: KeyObject;
  /** SHA-256 of the public key's DER (SubjectPublicKeyInfo), hex: the bundle's key hint. */
  keyId: string;
  algorithm: 'ECDSA P-256' | 'Ed25519';
}

export type SigningMethod =
  | { kind: 'key'; key: LocalKey }
  | { kind: 'keyless'; env: Record<string, string | undefined>; fulcioUrl?: string; rekorUrl?: string };

/** Reads and checks a PEM private key before the run, so a bad key never costs a whole run. */
export function readSigningKey(file: string): LocalKey {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SigningError(`--sign-key: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (error) {
    const encrypted = /ENCRYPTED/.test(pem) || /passphrase/i.test((error as Error).message);
    throw new SigningError(`--sign-key: ${file} is not ${encrypted ? 'an unencrypted' : 'a'} PEM private key${encrypted ? ' (decrypt it first, e.g. `openssl pkey -in KEY -out plain.pem`)' : ''}`);
  }
  const algorithm = algorithmOf(privateKey);
  if (!algorithm) {
    const curve = privateKey.asymmetricKeyDetails?.namedCurve;
    throw new SigningError(`--sign-key: ${file} is a ${privateKey.asymmetricKeyType}${curve ? ` ${curve}` : ''} key; use ECDSA P-256 or Ed25519`);
  }
  return { privateKey, keyId: keyIdOf(createPublicKey(privateKey)), algorithm };
}

export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('hex');
}

function algorithmOf(key: KeyObject): LocalKey['algorithm'] | undefined {
  if (key.asymmetricKeyType === 'ed25519') return 'Ed25519';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ECDSA P-256';
  return undefined;
}

/** @sigstore/sign's Signer over a local key: ECDSA signs the SHA-256 of the data (DER signature), Ed25519 the data. */
class LocalKeySigner implements Signer {
  constructor(private readonly key: LocalKey) {}

  async sign(data: Buffer): Promise<Signature> {
    const signature = sign(this.key.algorithm === 'Ed25519' ? null : 'sha256', data, this.key.privateKey);
    const publicKey = createPublicKey(this.key.privateKey).export({ type: 'spki', format: 'pem' }).toString();
    return { signature, key: { $case: 'publicKey', publicKey, hint: this.key.keyId } };
  }
}

/** Fails before the run when `--sign keyless` has no identity to use. */
export function checkKeylessIdentity(env: Record<string, string | undefined>): void {
  if (env.SIGSTORE_ID_TOKEN || (env.ACTIONS_ID_TOKEN_REQUEST_URL && env.ACTIONS_ID_TOKEN_REQUEST_TOKEN)) return;
  throw new SigningError(
    '--sign keyless: no OIDC identity in the environment. In GitHub Actions give the job `permissions: id-token: write`; elsewhere set SIGSTORE_ID_TOKEN to an OIDC token for the audience "sigstore" — or sign with --sign-key FILE',
  );
}

/** The statement signed and packaged as Sigstore bundle JSON (what attestation.sigstore.json holds). */
export async function signStatement(statement: Statement, method: SigningMethod): Promise<string> {
  // Loaded here, not at start: every command that can sign imports this module, few runs sign (0.3 s of CPU).
  const [{ bundleToJSON }, { DEFAULT_FULCIO_URL, DEFAULT_REKOR_URL, DSSEBundleBuilder, FulcioSigner, RekorWitness }] = await Promise.all([import('@sigstore/bundle'), import('@sigstore/sign')]);
  const artifact = { data: Buffer.from(JSON.stringify(statement)), type: IN_TOTO_PAYLOAD_TYPE };
  if (method.kind === 'key') {
    const bundle = await new DSSEBundleBuilder({ signer: new LocalKeySigner(method.key), witnesses: [] }).create(artifact);
    return `${JSON.stringify(bundleToJSON(bundle), null, 2)}\n`;
  }
  checkKeylessIdentity(method.env);
  const fulcioUrl = method.fulcioUrl ?? DEFAULT_FULCIO_URL;
  const rekorUrl = method.rekorUrl ?? DEFAULT_REKOR_URL;
  const retry = { retries: 2, minTimeout: 500, factor: 2 };
  const signer = new FulcioSigner({ identityProvider: ambientIdentity(method.env), fulcioBaseURL: fulcioUrl, retry, timeout: 30_000 });
  const rekor = new RekorWitness({ rekorBaseURL: rekorUrl, entryType: 'dsse', retry, timeout: 30_000 });
  try {
    const bundle = await new DSSEBundleBuilder({ signer, witnesses: [rekor] }).create(artifact);
    return `${JSON.stringify(bundleToJSON(bundle), null, 2)}\n`;
  } catch (error) {
    throw new SigningError(`--sign keyless: ${keylessFailure(error, fulcioUrl, rekorUrl)}`);
  }
}

/** The OIDC token from the environment the CLI was given (not process.env): SIGSTORE_ID_TOKEN, or GitHub Actions'. */
function ambientIdentity(env: Record<string, string | undefined>): IdentityProvider {
  return {
    async getToken() {
      if (env.SIGSTORE_ID_TOKEN) return env.SIGSTORE_ID_TOKEN;
      const url = new URL(env.ACTIONS_ID_TOKEN_REQUEST_URL!);
      url.searchParams.set('audience', 'sigstore');
      const res = await fetch(url, { headers: { accept: 'application/json', authorization: `Bearer ${env.ACTIONS_ID_TOKEN_REQUEST_TOKEN}` }, signal: AbortSignal.timeout(30_000) });
      if (!res.ok) throw new Error(`the GitHub Actions token service answered ${res.status}`);
      const { value } = (await res.json()) as { value?: unknown };
      if (typeof value !== 'string') throw new Error('the GitHub Actions token service answered without a token');
      return value;
    },
  };
}

/** One sentence naming the step that failed (identity, Fulcio, Rekor) and why, never a stack. */
function keylessFailure(error: unknown, fulcioUrl: string, rekorUrl: string): string {
  const e = error as { code?: string; message?: string; cause?: unknown };
  const why = rootCause(error);
  switch (e.code) {
    case 'IDENTITY_TOKEN_READ_ERROR':
      return `could not get the OIDC identity token (${why})`;
    case 'IDENTITY_TOKEN_PARSE_ERROR':
      return 'the OIDC identity token is not a JWT';
    case 'CA_CREATE_SIGNING_CERTIFICATE_ERROR':
      return `Fulcio at ${fulcioUrl} issued no signing certificate (${why}); the Sigstore services must be reachable for keyless signing — or sign with --sign-key FILE`;
    case 'TLOG_CREATE_ENTRY_ERROR':
    case 'TLOG_FETCH_ENTRY_ERROR':
      return `Rekor at ${rekorUrl} recorded no transparency-log entry (${why}); the Sigstore services must be reachable for keyless signing — or sign with --sign-key FILE`;
    default:
      return why;
  }
}

function rootCause(error: unknown): string {
  let e = error as { message?: string; cause?: unknown; code?: string } | undefined;
  while (e?.cause && typeof e.cause === 'object') e = e.cause as typeof e;
  const text = typeof e === 'string' ? e : (e?.message ?? String(e));
  // why: a token must never reach the terminal, even inside an upstream message (FulcioSigner quotes bad tokens)
  return text.replace(/eyJ[\w-]+\.[\w-]+\.[\w-]*/g, '[token]').split('\n')[0]!.slice(0, 300);
}
