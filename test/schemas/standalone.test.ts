// The committed standalone validators must be what the generator makes from the current schema files.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_DTS, GENERATED_JS, generateStandalone } from '../../schemas/standalone/generate.ts';

describe('committed standalone validators', () => {
  it('are up to date with schemas/*.schema.json (else run: node --import tsx schemas/standalone/generate.ts)', () => {
    const fresh = generateStandalone();
    expect(readFileSync(GENERATED_JS, 'utf8') === fresh.js, 'validators.generated.js is stale').toBe(true);
    expect(readFileSync(GENERATED_DTS, 'utf8')).toBe(fresh.dts);
  });
});
