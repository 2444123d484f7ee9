// The `conformance` command line: one entry, one place that reads process.env and decides exit codes.
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/config-error.ts';
import { SUITE_VERSION } from '../report/suite-info.ts';
import { EXIT, UsageError } from './cli-error.ts';
import { addHelpFooters } from './help-footer.ts';
import { registerBundle } from './commands/bundle.ts';
import { registerDiff } from './commands/diff.ts';
import { registerExplain } from './commands/explain.ts';
import { registerFuzz } from './commands/fuzz.ts';
import { registerLoad } from './commands/load.ts';
import { registerOpenApi } from './commands/openapi.ts';
import { registerProve } from './commands/prove.ts';
import { registerReference } from './commands/reference.ts';
import { registerReport } from './commands/report.ts';
import { registerRules } from './commands/rules.ts';
import { registerRun } from './commands/run.ts';
import { registerValidate } from './commands/validate.ts';
import { registerVerifyBundle } from './commands/verify-bundle.ts';

export async function main(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command('conformance')
    .description('Conformance suite and load harness for the Notification Service HTTP API (interface 3.19.2)')
    .version(SUITE_VERSION)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  registerRun(program, env, (code) => (exitCode = code));
  registerReference(program, env);
  registerValidate(program, (code) => (exitCode = code));
  registerReport(program, env);
  registerBundle(program, env);
  registerVerifyBundle(program, (code) => (exitCode = code));
  registerProve(program, env, (code) => (exitCode = code));
  registerLoad(program, env, (code) => (exitCode = code));
  registerExplain(program, (code) => (exitCode = code));
  registerFuzz(program, env, (code) => (exitCode = code));
  registerDiff(program, env, (code) => (exitCode = code));
  registerRules(program, (code) => (exitCode = code));
  registerOpenApi(program, (code) => (exitCode = code));
  addHelpFooters(program);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (error instanceof ConfigError || error instanceof UsageError) {
      process.stderr.write(`conformance: ${error.message}\n`);
      return EXIT.usage;
    }
    process.stderr.write(`conformance: internal error: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
}
