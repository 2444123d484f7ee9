// Every countable figure the README and docs state is the one the catalog and the shipped files give now (else run
// `npm run docs:figures`, which writes them all from a real run and retakes the README screenshot).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../../report/suite-info.ts';
import { countableFigures, stated } from './doc-figures.ts';

describe('figures in the documents', () => {
  for (const figure of countableFigures()) {
    test(`${figure.file}: ${figure.pattern.source}`, () => {
      expect(stated(readFileSync(join(REPO_ROOT, figure.file), 'utf8'), figure), 'stale: run npm run docs:figures').toEqual(figure.values);
    });
  }
});
