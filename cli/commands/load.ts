// `conformance load`: the rate-limit scenarios at real request rates (RL-05 and RL-03/04/06/08 under load).
import type { Command } from 'commander';
import type { LoadCommandOptions } from './load-command.ts';
import { withInterruption } from '../interrupt.ts';
import { addNetworkOptions, networkFlags, type NetworkFlags } from '../network-options.ts';
import { collect, integerOption } from '../options.ts';
import { addFormatOptions, outputOf, printJson, type FormatFlags } from '../output-format.ts';
import { loadDocument } from '../json-documents.ts';
import { parseFaults } from './reference.ts';

interface LoadFlags extends NetworkFlags, FormatFlags {
  target?: string;
  apiKey?: string;
  scenario: string[];
  engine: string;
  rateLimitRps?: number;
  config?: string;
  duration?: number;
  reportDir?: string;
  allowRemoteLoad?: boolean;
  profile: string;
  fault: string[];
  fromTimelines?: string[];
  oneAtATime?: boolean;
}

export function registerLoad(program: Command, env: Record<string, string | undefined>, setExit: (code: number) => void): void {
  addFormatOptions(addNetworkOptions(program.command('load')))
    .description('offer traffic above and below the trigger limit and judge the rate-limit rules from the timeline')
    .option('--target <url>', 'base URL of the implementation under test (default: the embedded reference)')
    .option('--api-key <key>', 'API key for the target')
    .option('--scenario <name>', 'trigger-limit, trigger-under-limit, headers-under-load, bulk-cost, category-isolation (repeatable; default all)', collect, [])
    .option('--engine <engine>', 'node (built in) or k6', 'node')
    .option('--rate-limit-rps <n>', 'the documented trigger limit (default: limits.triggerRps of the settings, 600)', integerOption('--rate-limit-rps', 1))
    .option('--config <file>', 'settings file of `conformance run`: its target, key, report dir and limits.triggerRps (the documented trigger limit)')
    .option('--duration <s>', 'total scenario time in seconds (phases scale to fit)', integerOption('--duration', 1, 900))
    .option('--profile <profile>', 'short (seconds, as in npm test) or full', 'full')
    .option('--report-dir <dir>', 'where load.json is written (merged into conformance.json when present; default reports/)')
    .option('--allow-remote-load', 'allow a target that is not this machine (only for a service you own)')
    .option('--fault <name>', 'embedded reference only: switch on a deliberate fault (repeatable)', collect, [])
    .option('--one-at-a-time', 'embedded reference: run the scenarios one after another instead of at once (for a busy machine; a scenario starved at once is run again alone anyway)')
    .option('--from-timelines <files...>', 'send nothing: judge recorded timelines, merging the instances of a k6 run split with --execution-segment')
    .action(async (flags: LoadFlags) => {
      const output = outputOf(flags);
      const startedMs = Date.now() - 1000;
      if (flags.engine !== 'node' && flags.engine !== 'k6') {
        process.stderr.write('conformance: --engine takes node or k6\n');
        return setExit(2);
      }
      if (flags.profile !== 'short' && flags.profile !== 'full') {
        process.stderr.write('conformance: --profile takes short or full\n');
        return setExit(2);
      }
      // Loaded here, not at start: `--version` or `reference` need none of the load harness.
      const [{ loadCommand }, { resolveSettings }] = await Promise.all([import('./load-command.ts'), import('../../config/resolve-settings.ts')]);
      // why: the limit a target declares (config file, CONFORMANCE_TRIGGER_RPS) is the one its load is judged at, as in `run`
      // why: run refuses keys without a target; load may take its target from the report, so then its key is read apart
      const keyless = flags.target === undefined && !env.CONFORMANCE_TARGET ? Object.fromEntries(Object.entries(env).filter(([name]) => !/^CONFORMANCE_\w*API_KEY$/.test(name))) : env;
      const settings = resolveSettings({ env: keyless, ...(flags.config ? { configFile: flags.config } : {}), flags: { 'run.reportDir': flags.reportDir, ...networkFlags(flags) } });
      const declared = settings.limits.triggerRps;
      // why: a limit given on purpose is compared with the report's; one left to its default yields to it
      const explicitRateLimit = flags.rateLimitRps !== undefined || flags.config !== undefined || Boolean(env.CONFORMANCE_TRIGGER_RPS) || Boolean(env.CONFORMANCE_CONFIG);
      // why: keys come from CONFORMANCE_* variables as in `run`, so a CI job never puts one on a command line
      const target = flags.target ?? (flags.fromTimelines ? undefined : settings.target.baseUrl);
      const apiKey = flags.apiKey ?? settings.target.apiKey ?? env.CONFORMANCE_API_KEY;
      const print = output.print;
      const options: LoadCommandOptions = {
        ...(target ? { target } : {}),
        ...(apiKey ? { apiKey } : {}),
        network: settings.network,
        scenarios: flags.scenario,
        engine: flags.engine,
        rateLimitRps: flags.rateLimitRps ?? declared,
        explicitRateLimit,
        ...(flags.duration ? { durationS: flags.duration } : {}),
        reportDir: settings.run.reportDir,
        allowRemoteLoad: flags.allowRemoteLoad ?? false,
        profile: flags.profile,
        faults: parseFaults(flags.fault),
        ...(flags.fromTimelines ? { fromTimelines: flags.fromTimelines } : {}),
        ...(flags.oneAtATime ? { oneAtATime: true } : {}),
      };
      const where = target ?? 'the embedded reference, which ends with this process';
      const onFirst = 'no more load is offered; the running scenario is judged as far as it went, the load fixture is removed and the reports are written.';
      const fixtures: string[] = [];
      const code = await withInterruption(print, onFirst, (interruption) =>
        loadCommand(options, {
          log: print,
          signal: interruption.signal,
          // why: scenarios run at once against the embedded reference each create a fixture of their own
          onFixture: (created) => {
            fixtures.push(...created);
            interruption.leftovers = () => fixtures.map((c) => `${c} (the load fixture) on ${where}`);
          },
        }),
      );
      if (output.json) printJson(loadDocument(settings.run.reportDir, code, startedMs));
      setExit(code);
    });
}
