// Checks a bundle's attestation with @sigstore/verify: the signature against the verifier's public key (or, keyless,
// a Fulcio certificate for the expected identity, logged in Rekor, under a Sigstore trusted root); then that the
// signed subjects are exactly the bundle's files and the signed predicate is what those files say.
import { createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { BUNDLE_V03_MEDIA_TYPE, bundleFromJSON, type Bundle } from '@sigstore/bundle';
import { TrustedRoot } from '@sigstore/protobuf-specs';
import { toSignedEntity, toTrustMaterial, Verifier, type TrustMaterial } from '@sigstore/verify';
import { parseBoundedJson } from './bounded-json.ts';
import { ATTESTATION_FILE, buildStatement, IN_TOTO_PAYLOAD_TYPE, PREDICATE_TYPE, STATEMENT_TYPE, type Statement } from './attestation.ts';
import { keyIdOf } from './sign-attestation.ts';

/** What the verifier trusts: a public key, or a keyless identity under Sigstore trusted roots. */
export type TrustPolicy =
  | { kind: 'none' }
  | { kind: 'key'; publicKey: KeyObject }
  | { kind: 'identity'; subjectAlternativeName: string; issuer: string; trustedRoots: TrustedRoot[] };

export interface AttestationOutcome {
  /** The bundle carries attestation.sigstore.json. */
  signed: boolean;
  /** The signature was checked against the verifier's key or identity (it may have failed). */
  signatureChecked?: boolean;
  /** The signature was checked against the policy and holds. */
  signatureVerified: boolean;
  /** Who signed, as the policy identifies them. */
  signer?: string;
  /** Who the bundle says signed (key fingerprint or certificate identity), before or without any check. */
  claimedSigner?: string;
}

type CheckFn = (ok: boolean, what: string) => void;

export class TrustPolicyError extends Error {}

export function readPublicKey(file: string): KeyObject {
  try {
    const pem = readFileSync(file, 'utf8');
    // why: createPublicKey derives the public half of a private key, so a signer's secret would be accepted as trust
    if (isPrivateKey(pem)) throw new TrustPolicyError(`--public-key: ${file} holds a private key; give its public key (\`openssl pkey -in KEY -pubout\`) and keep the private one secret`);
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== 'ed25519' && !(key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1')) {
      throw new TrustPolicyError(`--public-key: ${file} is a ${key.asymmetricKeyType} key; attestations are signed with ECDSA P-256 or Ed25519`);
    }
    return key;
  } catch (error) {
    if (error instanceof TrustPolicyError) throw error;
    throw new TrustPolicyError(`--public-key: ${file} is not a readable PEM public key (${(error as NodeJS.ErrnoException).code ?? (error as Error).message.split('\n')[0]})`);
  }
}

function isPrivateKey(pem: string): boolean {
  try {
    createPrivateKey(pem);
    return true;
  } catch {
    return /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem);
  }
}

/** A trusted_root.json, or the JSON lines `gh attestation trusted-root` prints (one trusted root per line). */
export function readTrustedRoots(file: string): TrustedRoot[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new TrustPolicyError(`--trusted-root: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    const roots = jsonDocuments(text).map((d) => TrustedRoot.fromJSON(d));
    if (roots.length === 0 || roots.every((r) => r.certificateAuthorities.length === 0)) throw new Error('no certificate authority in it');
    return roots;
  } catch (error) {
    throw new TrustPolicyError(`--trusted-root: ${file} is not a Sigstore trusted root (${(error as Error).message.split('\n')[0]})`);
  }
}

/** One JSON document, or JSON lines. */
function jsonDocuments(text: string): unknown[] {
  try {
    return [JSON.parse(text)];
  } catch {
    return text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown);
  }
}

export function verifyAttestation(files: ReadonlyMap<string, Buffer>, policy: TrustPolicy, check: CheckFn): AttestationOutcome {
  const raw = files.get(ATTESTATION_FILE);
  if (!raw) {
    if (policy.kind !== 'none') check(false, `the bundle carries a signed attestation (${ATTESTATION_FILE})`);
    return { signed: false, signatureVerified: false };
  }
  let bundle: Bundle;
  try {
    bundle = bundleFromJSON(parseBoundedJson(raw));
  } catch (error) {
    check(false, `${ATTESTATION_FILE} is a Sigstore bundle (${(error as Error).message.split('\n')[0]})`);
    return { signed: true, signatureVerified: false };
  }
  const dsse = bundle.content.$case === 'dsseEnvelope' ? bundle.content.dsseEnvelope : undefined;
  check(bundle.mediaType === BUNDLE_V03_MEDIA_TYPE && dsse !== undefined, `${ATTESTATION_FILE} is a Sigstore bundle v0.3 with a DSSE envelope (${bundle.mediaType}, ${bundle.content.$case})`);
  if (!dsse) return { signed: true, signatureVerified: false };

  const outcome = policy.kind === 'none' ? { signed: true, signatureVerified: false } : verifySignature(bundle, policy, check);
  checkStatement(dsse.payloadType, dsse.payload, files, check);
  const claimed = claimedSigner(bundle);
  return claimed ? { ...outcome, claimedSigner: claimed } : outcome;
}

/** The key fingerprint (the bundle's key hint) or the certificate's identity, as the bundle states them: unchecked. */
function claimedSigner(bundle: Bundle): string | undefined {
  const material = bundle.verificationMaterial.content;
  if (material.$case === 'publicKey') return /^[0-9a-f]{64}$/.test(material.publicKey.hint) ? `key ${material.publicKey.hint}` : undefined;
  const raw = material.$case === 'certificate' ? material.certificate.rawBytes : material.$case === 'x509CertificateChain' ? material.x509CertificateChain.certificates[0]?.rawBytes : undefined;
  try {
    return raw ? `certificate for ${new X509Certificate(raw).subjectAltName ?? 'no identity'}` : undefined;
  } catch {
    return undefined;
  }
}

function verifySignature(bundle: Bundle, policy: Exclude<TrustPolicy, { kind: 'none' }>, check: CheckFn): AttestationOutcome {
  const material = bundle.verificationMaterial.content.$case;
  if (policy.kind === 'key') {
    const keyId = keyIdOf(policy.publicKey);
    const what = `the signature verifies with the given public key (${policy.publicKey.asymmetricKeyType === 'ed25519' ? 'Ed25519' : 'ECDSA P-256'}, key ${keyId.slice(0, 16)}…)`;
    if (material !== 'publicKey') {
      check(false, `${what}: the attestation was signed keyless (a certificate); verify it with --certificate-identity and --certificate-oidc-issuer`);
      return { signed: true, signatureVerified: false };
    }
    const trust: TrustMaterial = { ...toTrustMaterial(EMPTY_ROOT), publicKey: () => ({ publicKey: policy.publicKey, validFor: () => true }) };
    const ok = attempt(() => new Verifier(trust, { tlogThreshold: 0, ctlogThreshold: 0, timestampThreshold: 0 }).verify(toSignedEntity(bundle)), what, check);
    return { signed: true, signatureChecked: true, signatureVerified: ok, signer: `key ${keyId}` };
  }
  const what = `the signature verifies with a Fulcio certificate for exactly ${policy.subjectAlternativeName} (issuer exactly ${policy.issuer}), logged in Rekor`;
  if (material === 'publicKey') {
    check(false, `${what}: the attestation was signed with a key; verify it with --public-key`);
    return { signed: true, signatureVerified: false };
  }
  // why: @sigstore/verify tests a policy's SAN as an unanchored regular expression (…@refs/heads/main would accept
  // …@refs/heads/main-unreviewed); the chain, log and signature are checked there, the identity here, exactly
  let identity: { san?: string; issuer?: string } | undefined;
  const verified = attempt(() => {
    const signer = new Verifier(mergeTrust(policy.trustedRoots)).verify(toSignedEntity(bundle));
    identity = { san: signer.identity?.subjectAlternativeName, issuer: signer.identity?.extensions?.issuer };
  }, 'the signature and its Fulcio certificate verify under the trusted root, logged in Rekor', check);
  if (!verified || !identity) return { signed: true, signatureChecked: true, signatureVerified: false };
  const certified = `${identity.san ?? 'no identity'} (issuer ${identity.issuer ?? 'none'})`;
  const ok = identity.san === policy.subjectAlternativeName && identity.issuer === policy.issuer;
  check(ok, ok ? `the certificate names exactly the expected identity ${certified}` : `${what}: the certificate names ${certified}`);
  return ok ? { signed: true, signatureChecked: true, signatureVerified: true, signer: certified } : { signed: true, signatureChecked: true, signatureVerified: false };
}

function attempt(verify: () => unknown, what: string, check: CheckFn): boolean {
  try {
    verify();
    check(true, what);
    return true;
  } catch (error) {
    check(false, `${what}: ${(error as Error).message.split('\n')[0]}`);
    return false;
  }
}

/** The statement must be exactly the one the bundle's files give: same subjects with the same digests, same predicate. */
function checkStatement(payloadType: string, payload: Buffer, files: ReadonlyMap<string, Buffer>, check: CheckFn): void {
  check(payloadType === IN_TOTO_PAYLOAD_TYPE, `the signed payload is an in-toto statement (${payloadType})`);
  let signed: Statement;
  try {
    signed = parseBoundedJson(payload) as Statement;
  } catch (error) {
    check(false, `the signed statement is JSON (${(error as Error).message})`);
    return;
  }
  check(signed._type === STATEMENT_TYPE && signed.predicateType === PREDICATE_TYPE, `the statement is ${STATEMENT_TYPE} with predicate ${PREDICATE_TYPE}`);
  const subjects = new Map((Array.isArray(signed.subject) ? signed.subject : []).map((s) => [s?.name, s?.digest?.sha256]));
  let expected: Statement;
  try {
    expected = buildStatement(files);
  } catch (error) {
    check(false, `the statement can be rebuilt from the bundle's files (${(error as Error).message})`);
    return;
  }
  const unsigned = expected.subject.filter((s) => !subjects.has(s.name)).map((s) => s.name);
  const changed = expected.subject.filter((s) => subjects.has(s.name) && subjects.get(s.name) !== s.digest.sha256).map((s) => s.name);
  const absent = [...subjects.keys()].filter((name) => !expected.subject.some((s) => s.name === name));
  check(unsigned.length === 0, `every file of the bundle is a signed subject${unsigned.length ? ` (not ${unsigned.join(', ')})` : ` (${expected.subject.length})`}`);
  check(changed.length === 0, `every file matches its signed SHA-256${changed.length ? ` (not ${changed.join(', ')})` : ''}`);
  check(absent.length === 0, `every signed subject is in the bundle${absent.length ? ` (missing ${absent.join(', ')})` : ''}`);
  check(isDeepStrictEqual(signed.predicate, expected.predicate), 'the signed predicate (target, options, verdicts, certification) is what conformance.json and configuration.json say');
}

/** No certificate authority, log or timestamp authority: a key-signed attestation needs none of them. */
const EMPTY_ROOT: TrustedRoot = { mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1', tlogs: [], certificateAuthorities: [], ctlogs: [], timestampAuthorities: [] };

/** `gh attestation trusted-root` gives several roots (public good, GitHub's): trust the union. */
function mergeTrust(roots: TrustedRoot[]): TrustMaterial {
  const all = roots.map((r) => toTrustMaterial(r));
  return {
    certificateAuthorities: all.flatMap((t) => t.certificateAuthorities),
    timestampAuthorities: all.flatMap((t) => t.timestampAuthorities),
    tlogs: all.flatMap((t) => t.tlogs),
    ctlogs: all.flatMap((t) => t.ctlogs),
    publicKey: all[0]!.publicKey,
  };
}
