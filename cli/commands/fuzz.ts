// `conformance fuzz`: requests generated from the request schemas and the official client's request models, and every
// other method on each path; crashes and contract breaks no rule test names.
import type { Command } from 'commander';
import { DEFAULT_BUDGET, DEFAULT_SEED } from '../../fuzz/defaults.ts';
import { FUZZ_TARGET_IDS } from '../../fuzz/targets.ts';
import { UsageError } from '../cli-error.ts';
import { printLine } from '../terminal.ts';
import { addNetworkOptions, networkFlags, type NetworkFlags } from '../network-options.ts';
import { collect, integerOption } from '../options.ts';
import { parseFaults } from './reference.ts';

interface FuzzFlags extends NetworkFlags {
  target?: string;
  apiKey?: string;
  config?: string;
  seed: number;
  budget: number;
  time?: number;
  operation: string[];
  fault: string[];
  reportDir?: string;
}

export function registerFuzz(program: Command, env: Record<string, string | undefined>, setExit: (code: number) => void): void {
  addNetworkOptions(program.command('fuzz'))
    .description('send requests generated from the request schemas (valid, and invalid one field at a time) and from the official client\'s request models, and every other method on each path; report 5xx and contract breaks, shrunk (exit 0 nothing found, 1 findings, 2 usage error or a run that could not run or stopped, 3 an operation\'s set-up failed)')
    .option('--target <url>', 'base URL of the implementation under test (default: the embedded reference)')
    .option('--api-key <key>', 'API key for the target')
    .option('--config <file>', 'YAML or JSON settings file (as for `run`)')
    .option('--seed <n>', 'generator seed, in decimal digits: the same seed sends the same requests', integerOption('--seed', 0, 2 ** 32 - 1), DEFAULT_SEED)
    .option('--budget <n>', 'generated requests per operation and mode', integerOption('--budget', 1, 100_000), DEFAULT_BUDGET)
    .option('--time <s>', 'a wall-clock budget for the whole run instead of --budget', integerOption('--time', 1, 24 * 3600))
    .option('--operation <id>', `only this operation (repeatable): ${FUZZ_TARGET_IDS.join(', ')}`, collect, [])
    .option('--fault <name>', 'embedded reference only: switch on a deliberate fault (repeatable)', collect, [])
    .option('--report-dir <dir>', 'where fuzz.json is written (default reports/)')
    .action(async function (this: Command, flags: FuzzFlags) {
      if (flags.time !== undefined && this.getOptionValueSource('budget') === 'cli') throw new UsageError('give --budget or --time, not both');
      const unknown = flags.operation.filter((o) => !FUZZ_TARGET_IDS.includes(o));
      if (unknown.length > 0) throw new UsageError(`--operation: unknown ${unknown.join(', ')}; known: ${FUZZ_TARGET_IDS.join(', ')}`);
      parseFaults(flags.fault);
      const { resolveSettings } = await import('../../config/resolve-settings.ts');
      const settings = resolveSettings({
        env,
        ...(flags.config ? { configFile: flags.config } : {}),
        flags: {
          'target.baseUrl': flags.target,
          'target.apiKey': flags.apiKey,
          'run.reportDir': flags.reportDir,
          'reference.faults': flags.fault.length > 0 ? flags.fault : undefined,
          ...networkFlags(flags),
        },
      });
      const print = printLine;
      // the process's start: --time is a budget for the whole command, as the user times it
      const commandStartedMs = Date.now() - process.uptime() * 1000;
      const options = { seed: flags.seed, budget: flags.budget, operations: flags.operation, ...(flags.time !== undefined ? { timeS: flags.time, commandStartedMs } : {}) };
      // Loaded here, not at start: the generators build fast-check arbitraries, which every other command would pay for.
      const { fuzzCommand } = await import('../../fuzz/fuzz-command.ts');
      setExit((await fuzzCommand(settings, options, print)).exitCode);
    });
}
