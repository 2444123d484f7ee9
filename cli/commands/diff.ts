// `conformance diff`: the same requests to a candidate and the reference; every difference in the answers.
import type { Command } from 'commander';
import { UsageError } from '../cli-error.ts';
import { addNetworkOptions, networkFlags, type NetworkFlags } from '../network-options.ts';
import { printLine } from '../terminal.ts';

interface DiffFlags extends NetworkFlags {
  target?: string;
  apiKey?: string;
  config?: string;
  reference?: string;
  referenceApiKey?: string;
  reportDir?: string;
}

export function registerDiff(program: Command, env: Record<string, string | undefined>, setExit: (code: number) => void): void {
  addNetworkOptions(program.command('diff'))
    .description('send one deterministic sequence (the eight operations, provisioned) to a candidate and the reference; report every difference')
    .option('--target <url>', 'base URL of the candidate (required, or CONFORMANCE_TARGET)')
    .option('--api-key <key>', 'API key for the candidate')
    .option('--config <file>', 'YAML or JSON settings file (as for `run`)')
    .option('--reference <url>', 'a reference to compare with (default: the embedded reference)')
    .option('--reference-api-key <key>', 'API key for --reference')
    .option('--report-dir <dir>', 'where diff.json is written (default reports/)')
    .action(async (flags: DiffFlags) => {
      const { resolveSettings } = await import('../../config/resolve-settings.ts');
      const settings = resolveSettings({
        env,
        ...(flags.config ? { configFile: flags.config } : {}),
        flags: { 'target.baseUrl': flags.target, 'target.apiKey': flags.apiKey, 'run.reportDir': flags.reportDir, ...networkFlags(flags) },
      });
      if (!settings.target.baseUrl) throw new UsageError('--target is required: the candidate to compare with the reference');
      if (flags.reference && !flags.referenceApiKey) throw new UsageError('--reference-api-key is required with --reference');
      if (!flags.reference && flags.referenceApiKey) throw new UsageError('--reference-api-key applies to --reference only (the embedded reference has its own keys)');
      const reference = flags.reference ? { baseUrl: flags.reference, apiKey: flags.referenceApiKey! } : undefined;
      const print = printLine;
      // Loaded here, not at start: only `diff` needs the sequence and its normalization.
      const { diffCommand } = await import('../../diff/diff-command.ts');
      setExit((await diffCommand({ candidate: settings, ...(reference ? { reference } : {}), reportDir: settings.run.reportDir }, print)).exitCode);
    });
}
