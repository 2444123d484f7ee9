// A signing key pair written as PEM files, as a vendor keeps it: the private key signs, the public one verifies.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface VendorKey {
  privateKey: string;
  publicKey: string;
  /** The public key itself (its fingerprint is what verify-bundle prints). */
  key: KeyObject;
}

export function vendorKey(dir: string, type: 'ec' | 'ed25519' = 'ec'): VendorKey {
  const pair = type === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
  const privateKey = join(dir, `vendor-${type}.pem`);
  const publicKey = join(dir, `vendor-${type}.pub`);
  writeFileSync(privateKey, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(publicKey, pair.publicKey.export({ type: 'spki', format: 'pem' }));
  return { privateKey, publicKey, key: pair.publicKey };
}
