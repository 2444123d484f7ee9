// The conformance() calls of suites/, found in their source: which rules each names, its title, where it stands.
import { sourceFiles, lineAt, type SourceLine } from './source-files.ts';

export interface ActiveTest extends SourceLine {
  rules: string[];
  /** The test's source, from its call to the next call in the file (for the schemas it asserts). */
  body: string;
}

// conformance('RULE', 'title', …) or conformance(['A', 'B'], `title ${x}`, …), possibly across lines
const CALL = /\bconformance\(\s*(\[[^\]]*\]|'[A-Z]+-\d+')\s*,\s*('(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`|"(?:[^"\\\n]|\\.)*")/g;

export function activeTests(): ActiveTest[] {
  return sourceFiles('suites')
    .filter((f) => f.path.endsWith('.test.ts'))
    .flatMap((file) => {
      const calls = [...file.text.matchAll(CALL)];
      return calls.map((call, i) => ({
        file: file.path,
        line: lineAt(file.text, call.index),
        text: call[2]!.slice(1, -1),
        rules: [...call[1]!.matchAll(/'([A-Z]+-\d+)'/g)].map((m) => m[1]!),
        body: file.text.slice(call.index, calls[i + 1]?.index ?? file.text.length),
      }));
    });
}
