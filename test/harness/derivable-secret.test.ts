// The EV-02 check: every common reversible encoding of a plaintext is recognised, whatever the plaintext, and the
// deployed mask or an unrelated value is not.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { revealedBy } from '../../fixtures/environment-variables/derivable.ts';

const ENCODINGS: Record<string, (p: string) => string> = {
  plain: (p) => p,
  'with a prefix': (p) => `••••${p}`,
  base64: (p) => Buffer.from(p).toString('base64'),
  base64url: (p) => Buffer.from(p).toString('base64url'),
  'base64 after a prefix': (p) => `mask:${Buffer.from(p).toString('base64')}`,
  hex: (p) => Buffer.from(p).toString('hex'),
  'hex after a prefix': (p) => `mask-${Buffer.from(p).toString('hex')}`,
  'upper-case hex': (p) => Buffer.from(p).toString('hex').toUpperCase(),
  'URL-encoded': (p) => encodeURIComponent(p),
  reversed: (p) => [...p].reverse().join(''),
  'upper case': (p) => p.toUpperCase(),
  'lower case': (p) => p.toLowerCase(),
};
const plaintexts = fc.string({ minLength: 8, maxLength: 40, unit: 'grapheme' }).filter((s) => s.trim().length >= 8);

describe('revealedBy', () => {
  for (const [name, encode] of Object.entries(ENCODINGS)) {
    it(`finds a plaintext in its ${name} form`, () => {
      fc.assert(fc.property(plaintexts, (p) => revealedBy(encode(p), p) !== undefined));
    });
  }

  it('does not find it in the deployed mask or in a one-way hash', () => {
    fc.assert(fc.property(plaintexts, (p) => revealedBy('••••••••', p) === undefined && revealedBy(createHash('sha256').update(p).digest('hex'), p) === undefined));
  });
});
