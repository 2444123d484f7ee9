// The countable figures the README and docs state, each with where it stands and what it is now: one table that
// `npm run docs:figures` writes from and test/docs/figures.test.ts checks against.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { REQUIREMENTS } from '../../requirements/index.ts';
import { REPO_ROOT } from '../../report/suite-info.ts';
import { shippedFileDigests } from '../../report/suite-release.ts';

export interface Figure {
  /** The document, relative to the repository root. */
  file: string;
  /** Matches the sentence; its groups are the figures, in the order `values` gives them. */
  pattern: RegExp;
  values: string[];
}

const rules = REQUIREMENTS;

/** What can be counted without a run: the rule catalog and the shipped files. */
export function countableFigures(): Figure[] {
  const shipped = [...shippedFileDigests(REPO_ROOT).keys()];
  const bytes = shipped.reduce((n, path) => n + statSync(join(REPO_ROOT, path)).size, 0);
  return [
    { file: 'README.md', pattern: /judges every answer by the suite's (\d+) numbered rules \((\d+) of them MUST;/, values: [String(rules.length), String(rules.filter((r) => r.level === 'MUST').length)] },
    { file: 'docs/releasing.md', pattern: /hashes its shipped files \((\d+) files, (\d+) MB:/, values: [String(shipped.length), String(Math.max(1, Math.round(bytes / 1e6)))] },
  ];
}

/** What only a run can count: the tests `conformance run` runs against the embedded reference. */
export function runFigures(testsRun: number): Figure[] {
  return [{ file: 'README.md', pattern: /starts the embedded reference, runs its (\d+) tests against it/, values: [String(testsRun)] }];
}

/** The figures as the document states them now, or undefined where the sentence is gone. */
export function stated(text: string, figure: Figure): string[] | undefined {
  const m = figure.pattern.exec(text);
  return m ? m.slice(1) : undefined;
}

/** The document with the figure's values written into its sentence. */
export function withFigure(text: string, figure: Figure): string {
  const m = figure.pattern.exec(text);
  if (!m) throw new Error(`${figure.file}: the sentence ${figure.pattern} is not there any more; update test/docs/doc-figures.ts`);
  let sentence = m[0];
  let at = 0;
  for (const [i, value] of figure.values.entries()) {
    const old = m[i + 1]!;
    at = sentence.indexOf(old, at);
    sentence = sentence.slice(0, at) + value + sentence.slice(at + old.length);
    at += value.length;
  }
  return text.slice(0, m.index) + sentence + text.slice(m.index + m[0].length);
}
