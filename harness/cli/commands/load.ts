// `conformance load`: the rate-limit scenarios at real request rates (RL-05 and RL-03/04/06/08 under load).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { rewriteHtml } from '../../report/write-reports.ts';
import { loadCommand } from '../../../load/cli.ts';
import { collect, integerOption } from '../options.ts';
import { parseFaults } from './reference.ts';

interface LoadFlags {
  target?: string;
  apiKey?: string;
  scenario: string[];
  engine: string;
  rateLimitRps: number;
  duration?: number;
  reportDir: string;
  allowRemoteLoad?: boolean;
  profile: string;
  fault: string[];
  fromTimelines?: string[];
}

export function registerLoad(program: Command, setExit: (code: number) => void): void {
  program
    .command('load')
    .description('offer traffic above and below the trigger limit and judge the rate-limit rules from the timeline')
    .option('--target <url>', 'base URL of the implementation under test (default: the embedded reference)')
    .option('--api-key <key>', 'API key for the target')
    .option('--scenario <name>', 'trigger-limit, trigger-under-limit, headers-under-load, bulk-cost, category-isolation (repeatable; default all)', collect, [])
    .option('--engine <engine>', 'node (built in) or k6', 'node')
    .option('--rate-limit-rps <n>', 'the documented trigger limit', integerOption('--rate-limit-rps', 1), 600)
    .option('--duration <s>', 'total scenario time in seconds (phases scale to fit)', integerOption('--duration', 1, 900))
    .option('--profile <profile>', 'short (seconds, as in npm test) or full', 'full')
    .option('--report-dir <dir>', 'where load.json is written (merged into conformance.json when present)', 'reports')
    .option('--allow-remote-load', 'allow a target that is not this machine (only for a service you own)')
    .option('--fault <name>', 'embedded reference only: switch on a deliberate fault (repeatable)', collect, [])
    .option('--from-timelines <files...>', 'send nothing: judge recorded timelines, merging the instances of a k6 run split with --execution-segment')
    .action(async (flags: LoadFlags) => {
      if (flags.engine !== 'node' && flags.engine !== 'k6') {
        process.stderr.write('conformance: --engine takes node or k6\n');
        return setExit(2);
      }
      if (flags.profile !== 'short' && flags.profile !== 'full') {
        process.stderr.write('conformance: --profile takes short or full\n');
        return setExit(2);
      }
      const code = await loadCommand(
        {
          ...(flags.target ? { target: flags.target } : {}),
          ...(flags.apiKey ? { apiKey: flags.apiKey } : {}),
          scenarios: flags.scenario,
          engine: flags.engine,
          rateLimitRps: flags.rateLimitRps,
          ...(flags.duration ? { durationS: flags.duration } : {}),
          reportDir: flags.reportDir,
          allowRemoteLoad: flags.allowRemoteLoad ?? false,
          profile: flags.profile,
          faults: parseFaults(flags.fault),
          ...(flags.fromTimelines ? { fromTimelines: flags.fromTimelines } : {}),
        },
        { log: (line) => process.stdout.write(`${line}\n`) },
      );
      // The page of the run shows the load charts and the merged RL verdicts too.
      if (existsSync(join(flags.reportDir, 'conformance.json'))) rewriteHtml(flags.reportDir);
      setExit(code);
    });
}
