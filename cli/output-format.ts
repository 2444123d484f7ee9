// --json / --format json: the command prints one JSON document on stdout for a script, its text goes to stderr.
import type { Command } from 'commander';
import { UsageError } from './cli-error.ts';
import { printErrorLine, printLine } from './terminal.ts';

export interface FormatFlags {
  json?: boolean;
  format?: string;
}

export function addFormatOptions(command: Command): Command {
  return command
    .option('--json', 'print one JSON document on stdout for scripts (the text goes to stderr); same as --format json')
    .option('--format <format>', 'text (default) or json');
}

export interface Output {
  json: boolean;
  /** Where the human text goes: stdout, or stderr when stdout carries the JSON document. */
  print(line: string): void;
}

export function outputOf(flags: FormatFlags): Output {
  if (flags.format !== undefined && flags.format !== 'text' && flags.format !== 'json') throw new UsageError(`--format takes text or json, got "${flags.format.slice(0, 40)}"`);
  if (flags.json && flags.format === 'text') throw new UsageError('--json and --format text contradict each other: give one');
  const json = flags.json === true || flags.format === 'json';
  return { json, print: json ? printErrorLine : printLine };
}

/** The one JSON document of a command, on stdout. */
export function printJson(document: unknown): void {
  process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
}
