// `conformance openapi`: prints the OpenAPI 3.1 document of the eight operations, made from the suite's own schemas.
import type { Command } from 'commander';
import { EXIT } from '../cli-error.ts';

export function registerOpenApi(program: Command, setExit: (code: number) => void): void {
  program
    .command('openapi')
    .description('print an OpenAPI 3.1 document of the eight operations, built from the JSON Schemas the suite checks with (for Schemathesis, Prism, Dredd, code generators)')
    .action(async () => {
      const { openApiText } = await import('../../schemas/openapi/document.ts');
      process.stdout.write(openApiText());
      setExit(EXIT.ok);
    });
}
