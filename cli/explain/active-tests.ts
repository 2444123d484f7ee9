// The conformance() calls of suites/, found in their source: which rules each names, its title, where it stands.
import { sourceFiles, lineAt, type SourceLine } from './source-files.ts';

export interface ActiveTest extends SourceLine {
  rules: string[];
  /** The test's source, from its call to the next call in the file (for the schemas it asserts). */
  body: string;
  /** For a title built in a loop (`for (const form of FORMS)`): the list it runs once per entry of. */
  repeatedOver?: string;
}

// conformance('RULE', 'title', …) or conformance(['A', 'B'], `title ${x}`, …), possibly across lines
const CALL = /\bconformance\(\s*(\[[^\]]*\]|'[A-Z]+-\d+')\s*,\s*('(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`|"(?:[^"\\\n]|\\.)*")/g;

export function activeTests(): ActiveTest[] {
  return sourceFiles('suites')
    .filter((f) => f.path.endsWith('.test.ts'))
    .flatMap((file) => {
      const calls = [...file.text.matchAll(CALL)];
      return calls.map((call, i) => {
        const text = call[2]!.slice(1, -1);
        const over = loopOf(text, file.text.slice(0, call.index));
        return {
          file: file.path,
          line: lineAt(file.text, call.index),
          text,
          rules: [...call[1]!.matchAll(/'([A-Z]+-\d+)'/g)].map((m) => m[1]!),
          body: file.text.slice(call.index, calls[i + 1]?.index ?? file.text.length),
          ...(over ? { repeatedOver: over } : {}),
        };
      });
    });
}

const LOOP = /\bfor \(const (\w+) of ([\w.]+(?:\(\))?)\)/g;

/** The list a templated title's variable comes from: the nearest `for (const v of LIST)` above the call naming `v`. */
function loopOf(title: string, before: string): string | undefined {
  const used = new Set([...title.matchAll(/\$\{\s*(\w+)/g)].map((m) => m[1]!));
  if (used.size === 0) return undefined;
  return [...before.matchAll(LOOP)].reverse().find((m) => used.has(m[1]!))?.[2];
}
