// Runs every case of schemas/cases/*.cases.json against the registry.
import { describe, expect, it } from 'vitest';
import { registry, isSchemaName } from '../../schemas/registry.ts';
import { formatViolation } from '../../schemas/violations.ts';
import { caseFileNames, loadCases } from './case-files.ts';

for (const file of caseFileNames()) {
  describe(file, () => {
    for (const group of loadCases(file)) {
      const name = group.schema.$ref;
      describe(group.description, () => {
        it.each(group.tests.map((t) => [t.description, t] as const))('%s', (_d, test) => {
          if (!isSchemaName(name)) throw new Error(`unknown schema ${name}`);
          const result = registry.validate(name, test.data);
          const explain = result.violations.map((v) => formatViolation(name, v)).join('\n') || 'no violation';
          expect(result.valid, explain).toBe(test.valid);
          if (test.failsAt !== undefined) {
            expect(result.violations.map((v) => v.path), `expected a violation at ${test.failsAt}; got\n${explain}`).toContain(test.failsAt);
          }
        });
      });
    }
  });
}
