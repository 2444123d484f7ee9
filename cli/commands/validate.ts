// `conformance validate`: checks a captured JSON body against one of the spec's schemas, offline.
import type { Command } from 'commander';


export function registerValidate(program: Command, setExit: (code: number) => void): void {
  program
    .command('validate')
    .description('validate a captured JSON body (FILE, or - for stdin) against a schema of the spec')
    .argument('[file]', 'JSON file to validate, or - for standard input')
    .option('--schema <name>', 'schema name, e.g. WorkflowResponseDto (see --list)')
    .option('--no-unwrap', 'do not remove a single-key {data: …} envelope first')
    .option('--strict', 'also report properties the schema does not name, as warnings')
    .option('--list', 'print the schema names and exit')
    .action(async (file: string | undefined, opts: { schema?: string; unwrap: boolean; strict?: boolean; list?: boolean }) => {
      const { validateCommand } = await import('../../schemas/validate-command.ts');
      const code = await validateCommand(
        { ...(opts.schema ? { schema: opts.schema } : {}), ...(file ? { file } : {}), unwrap: opts.unwrap, list: opts.list ?? false, strict: opts.strict ?? false },
        {
          stdout: (s) => process.stdout.write(s.endsWith('\n') ? s : `${s}\n`),
          stderr: (s) => process.stderr.write(s.endsWith('\n') ? s : `${s}\n`),
          readStdin: async () => {
            const chunks: Buffer[] = [];
            for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
            return Buffer.concat(chunks).toString('utf8');
          },
        },
      );
      setExit(code);
    });
}
