// The project's own source text, read to point at file:line (rule explanations quote code, they do not run it).
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { REPO_ROOT } from '../../report/suite-info.ts';

export interface SourceFile {
  /** Relative to the repository root, with forward slashes. */
  path: string;
  text: string;
}

/** A place in the source and what stands there (a test title, a line of code, a scenario name). */
export interface SourceLine {
  file: string;
  line: number;
  text: string;
}

/** Every `.ts` file under one room, in path order. */
export function sourceFiles(room: string): SourceFile[] {
  return (readdirSync(join(REPO_ROOT, room), { recursive: true }) as string[])
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `${room}/${name.split(sep).join('/')}`)
    .sort()
    .map((path) => ({ path, text: readFileSync(join(REPO_ROOT, path), 'utf8') }));
}

/** 1-based line of a character offset. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/** Every line of a file that contains `needle`. */
export function linesContaining(file: SourceFile, needle: string): SourceLine[] {
  return file.text.split('\n').flatMap((text, i) => (text.includes(needle) ? [{ file: file.path, line: i + 1, text: text.trim() }] : []));
}
