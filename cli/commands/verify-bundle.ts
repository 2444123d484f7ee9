// `conformance verify-bundle FILE [--public-key PEM | --certificate-identity … --certificate-oidc-issuer … --trusted-root F]`:
// exit 0 CERTIFIED, 1 INVALID (a check failed: tampering, wrong key or identity), 3 intact but certifies nothing.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { BundleVerification, TrustedRelease } from '../../certify/certify-bundle.ts';
import type { TrustPolicy } from '../../certify/verify-attestation.ts';
import { EXIT, UsageError } from '../cli-error.ts';
import { printBundleVerification } from '../print-bundle-verification.ts';
import { verifyBundleDocument } from '../json-documents.ts';
import { addFormatOptions, outputOf, printJson, type FormatFlags } from '../output-format.ts';

interface VerifyFlags extends FormatFlags {
  publicKey?: string;
  certificateIdentity?: string;
  certificateOidcIssuer?: string;
  trustedRoot?: string;
  suiteDigest?: string;
}

export function registerVerifyBundle(program: Command, setExit: (code: number) => void): void {
  addFormatOptions(program.command('verify-bundle'))
    .description('check a certification bundle: the signature, the signed files, every rule present, summary and certification grade consistent')
    .argument('<file>', 'the .tar.gz written by `conformance run --bundle` or `conformance bundle`')
    .option('--public-key <pem>', 'the signer\'s public key (PEM, ECDSA P-256 or Ed25519) for a bundle signed with --sign-key')
    .option('--certificate-identity <san>', 'keyless: the identity the signing certificate must name (e.g. the workflow URL)')
    .option('--certificate-oidc-issuer <url>', 'keyless: the OIDC issuer of that identity (e.g. https://token.actions.githubusercontent.com)')
    .option('--trusted-root <file>', 'keyless: Sigstore trusted root (trusted_root.json, or `gh attestation trusted-root` output)')
    .option('--suite-digest <sha256:hex>', 'the digest published with the suite release the run names (default: this suite\'s own, when it is a release of that version)')
    .action(async (file: string, flags: VerifyFlags) => {
      // Loaded here, not at start: Sigstore's verifier and tar serve this command only.
      const [{ certifyBundle }, { readBundle }, attestation, suite] = await Promise.all([
        import('../../certify/certify-bundle.ts'),
        import('../../certify/verify-bundle.ts'),
        import('../../certify/verify-attestation.ts'),
        import('../../report/suite-info.ts'),
      ]);
      if (flags.suiteDigest !== undefined && !/^sha256:[0-9a-f]{64}$/.test(flags.suiteDigest)) throw new UsageError(`--suite-digest takes sha256:<64 hex digits>, the digest published with a release; got "${flags.suiteDigest.slice(0, 80)}"`);
      if (!existsSync(file)) throw new UsageError(`no such bundle: ${file}`);
      const policy = trustPolicy(flags, attestation);
      const output = outputOf(flags);
      const print = output.print;
      let result: BundleVerification;
      try {
        result = certifyBundle(readBundle(file), policy, trustedRelease(flags, suite));
      } catch (error) {
        result = { status: 'invalid', checks: [{ ok: false, what: `the bundle is a readable tar.gz archive (${(error as Error).message})` }], attestation: { signed: false, signatureVerified: false }, notCertifiedBecause: [] };
      }
      const trust = flags.publicKey ? { kind: 'key' as const, file: flags.publicKey } : policy.kind === 'identity' ? { kind: 'identity' as const, identity: policy.subjectAlternativeName } : { kind: 'none' as const };
      printBundleVerification(result, { file, trust, now: new Date() }, print);
      const code = result.status === 'certified' ? EXIT.ok : result.status === 'invalid' ? EXIT.failed : EXIT.incomplete;
      if (output.json) printJson(verifyBundleDocument(result, file, code));
      setExit(code);
    });
}

/** --suite-digest, else this verifier's own files when they are a release (then only for a run of that version). */
function trustedRelease(flags: VerifyFlags, { suiteSource, isReleasedSuite, SUITE_VERSION }: typeof import('../../report/suite-info.ts')): TrustedRelease | undefined {
  if (flags.suiteDigest) return { digest: flags.suiteDigest, source: 'given with --suite-digest' };
  const own = { ...suiteSource(), version: SUITE_VERSION };
  return isReleasedSuite(own) ? { version: SUITE_VERSION, digest: own.digest!, source: `this verifier's own release ${SUITE_VERSION}` } : undefined;
}

function trustPolicy(flags: VerifyFlags, { readPublicKey, readTrustedRoots, TrustPolicyError }: typeof import('../../certify/verify-attestation.ts')): TrustPolicy {
  const keyless = flags.certificateIdentity !== undefined || flags.certificateOidcIssuer !== undefined || flags.trustedRoot !== undefined;
  if (flags.publicKey && keyless) throw new UsageError('--public-key checks a key signature; --certificate-identity/--certificate-oidc-issuer/--trusted-root a keyless one: give one or the other');
  try {
    if (flags.publicKey) return { kind: 'key', publicKey: readPublicKey(flags.publicKey) };
    if (!keyless) return { kind: 'none' };
    if (!flags.certificateIdentity || !flags.certificateOidcIssuer) throw new UsageError('keyless verification needs both --certificate-identity and --certificate-oidc-issuer');
    if (!flags.trustedRoot) throw new UsageError('keyless verification needs --trusted-root FILE: the Sigstore trusted root (`gh attestation trusted-root > trusted_root.jsonl`)');
    return { kind: 'identity', subjectAlternativeName: flags.certificateIdentity, issuer: flags.certificateOidcIssuer, trustedRoots: readTrustedRoots(flags.trustedRoot) };
  } catch (error) {
    if (error instanceof TrustPolicyError) throw new UsageError(error.message);
    throw error;
  }
}
