// Every line a command prints goes through here: text from a target, a report or a bundle reaches the terminal
// with its control characters shown, never acted on (report/markup.ts escapes).
import { escapeTerminalLines } from '../report/markup.ts';

export function printLine(line: string): void {
  process.stdout.write(`${escapeTerminalLines(line)}\n`);
}

/** The human text of a command whose stdout carries one JSON document (--json): it goes to stderr. */
export function printErrorLine(line: string): void {
  process.stderr.write(`${escapeTerminalLines(line)}\n`);
}
