// `conformance validate --schema NAME FILE|-` and `--list`: validates a captured JSON body, one line per violation.
// Exit codes: 0 valid, 1 invalid, 2 unknown schema or unreadable input.
import { readFile } from 'node:fs/promises';
import { registry, isSchemaName, SCHEMA_NAMES, type ValidationResult } from './registry.ts';
import { validateItems } from './response-check.ts';
import { unwrapData } from './route-map.ts';
import type { Violation } from './violations.ts';

export interface ValidateCommandOptions {
  schema?: string;
  /** Path of the body, or '-' for stdin. */
  file?: string;
  /** Remove a single-key `{data: …}` wrapper first (CLI: on unless --no-unwrap). */
  unwrap: boolean;
  list: boolean;
  /** Also print properties the schema does not define, as warnings (never change the exit code). */
  strict?: boolean;
}

export interface ValidateCommandIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  readStdin: () => Promise<string>;
}

export const EXIT_VALID = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

export async function validateCommand(opts: ValidateCommandOptions, io: ValidateCommandIo): Promise<number> {
  if (opts.list) {
    for (const name of SCHEMA_NAMES) io.stdout(`${name}\n`);
    return EXIT_VALID;
  }
  if (!opts.schema) {
    io.stderr('no --schema given: name the schema to validate against, e.g. --schema WorkflowResponseDto (--list prints them all)\n');
    return EXIT_USAGE;
  }
  if (!isSchemaName(opts.schema)) {
    io.stderr(`--schema ${JSON.stringify(opts.schema)}: unknown schema; known schemas (see --list): ${SCHEMA_NAMES.join(', ')}\n`);
    return EXIT_USAGE;
  }
  if (!opts.file) {
    io.stderr('no input: give a FILE, or - for stdin\n');
    return EXIT_USAGE;
  }
  let body: unknown;
  try {
    const text = opts.file === '-' ? await io.readStdin() : await readFile(opts.file, 'utf8');
    body = JSON.parse(text);
  } catch (err) {
    io.stderr(`cannot read JSON from ${opts.file === '-' ? 'stdin' : opts.file}: ${(err as Error).message}\n`);
    return EXIT_USAGE;
  }
  if (opts.unwrap) body = unwrapData(body);
  const check = { strict: opts.strict ?? false };
  // none of the schemas is an array, so an array body is a list response: each item is checked
  const result: ValidationResult = Array.isArray(body)
    ? validateItems(opts.schema, body, check)
    : registry.validate(opts.schema, body, check);
  for (const v of result.violations) io.stdout(`${line(v)}\n`);
  for (const w of result.warnings) io.stdout(`warning ${line(w)}\n`);
  const count = result.violations.length;
  io.stdout(`${opts.schema}: ${result.valid ? 'valid' : `invalid (${count} violation${count === 1 ? '' : 's'})`}${warningsNote(result)}\n`);
  return result.valid ? EXIT_VALID : EXIT_INVALID;
}

// path, rule, offending value, then the human message: tab-separated so it can be cut/awk-ed
function line(v: Violation): string {
  const value = v.value === undefined ? '(missing)' : JSON.stringify(v.value);
  return [v.path || '/', v.rule, value, v.message].join('\t');
}

function warningsNote(r: ValidationResult): string {
  return r.warnings.length ? `, ${r.warnings.length} warning${r.warnings.length === 1 ? '' : 's'}` : '';
}
