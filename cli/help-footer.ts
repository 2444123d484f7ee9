// The end of every command's --help: its exit codes and the environment variables it reads. The variable names
// come from the tables the commands themselves read (config/env-vars.ts, the reference's key sources), so the
// footer names what the code reads.
import type { Command } from 'commander';
import { CONFIG_FILE_ENV_VAR, ENV_VARS } from '../config/env-vars.ts';
import { KEY_SOURCES } from './commands/reference.ts';

type SettingPath = (typeof ENV_VARS)[keyof typeof ENV_VARS];

/** Which settings a command reads from the environment: all of them, or the listed ones. */
type SettingsRead = 'all' | readonly SettingPath[] | 'none';

interface Footer {
  exits: readonly (readonly [number, string])[];
  settings: SettingsRead;
  /** Variables outside the settings chain, with what each does. */
  extra?: readonly (readonly [string, string])[];
}

const USAGE = [2, 'usage or configuration error (the message names the flag, setting or file)'] as const;
const INTERRUPTED = [130, 'interrupted (Ctrl-C or SIGTERM): the reports are still written, summary.interrupted: true'] as const;
const KEYLESS = [
  ['SIGSTORE_ID_TOKEN', 'the OIDC token for --sign keyless outside GitHub Actions'],
  ['ACTIONS_ID_TOKEN_REQUEST_URL', 'with ACTIONS_ID_TOKEN_REQUEST_TOKEN: GitHub Actions\' OIDC token for --sign keyless'],
] as const;

const FOOTERS: Record<string, Footer> = {
  run: {
    exits: [
      [0, 'conformant: every MUST rule passed or is not applicable by the target\'s declaration (with --expectations: the run matched the baseline)'],
      [1, 'non-conformant: a MUST rule failed or a suite file could not run (with --expectations: an unexpected result)'],
      [2, 'usage or configuration error, or the run could not run (target unreachable, key refused, container did not start): the message names the setting'],
      [3, 'incomplete: no MUST rule failed, some MUST rule was not verified (summary.unverifiedMust says why)'],
      INTERRUPTED,
    ],
    settings: 'all',
    extra: KEYLESS,
  },
  load: {
    exits: [
      [0, 'the merged report is conformant (or the load rules held, without a report of `run` to merge into)'],
      [1, 'a rule judged under load failed'],
      USAGE,
      [3, 'the merged report is incomplete, or (without a report to merge into) a MUST rule could not be judged: the load generator fell behind'],
      INTERRUPTED,
    ],
    settings: ['target.baseUrl', 'target.apiKey', 'limits.triggerRps', 'run.reportDir'],
  },
  fuzz: {
    exits: [
      [0, 'nothing found'],
      [1, 'at least one finding (error or warning)'],
      [2, 'usage error, a pre-flight refusal, or a run that stopped (fuzz.json keeps what was found and why)'],
      [3, "nothing found, but an operation's set-up failed: it was not fuzzed"],
    ],
    settings: 'all',
  },
  diff: { exits: [[0, 'no difference'], [1, 'at least one difference'], [2, 'usage error or a side is unreachable']], settings: 'all' },
  prove: { exits: [[0, 'every fault is caught by the tests of the rules it breaks'], [1, 'a fault went unnoticed, or the clean reference failed'], USAGE], settings: ['run.reportDir'] },
  report: { exits: [[0, 'the Allure HTML report was written'], USAGE], settings: ['run.reportDir'] },
  bundle: { exits: [[0, 'the bundle was written (and signed)'], [2, 'usage error, no report to bundle, or signing failed (no bundle written)']], settings: ['run.reportDir'], extra: KEYLESS },
  'verify-bundle': {
    exits: [
      [0, 'CERTIFIED: signature verified with what you trust, certification-grade, conformant'],
      [1, 'INVALID: edited after signing, signed by someone else, or inconsistent'],
      USAGE,
      [3, 'NOT CERTIFIED: intact, but unsigned, unchecked, not certification-grade or not conformant'],
    ],
    settings: 'none',
  },
  validate: { exits: [[0, 'the body is valid'], [1, 'the body is invalid'], USAGE], settings: 'none' },
  explain: { exits: [[0, 'the rule was printed'], [2, 'unknown rule ID (the message names the closest ones)']], settings: 'none' },
  rules: { exits: [[0, 'the rules were printed'], USAGE], settings: 'none' },
  openapi: { exits: [[0, 'the document was printed'], USAGE], settings: 'none' },
  reference: {
    exits: [[0, 'stopped by SIGINT or SIGTERM'], [2, 'a given key is empty, too short or the same as another, or a flag is wrong']],
    settings: 'none',
    extra: Object.values(KEY_SOURCES).map((k) => [k.envVar, `the key of ${k.option} when that flag is not given`] as const),
  },
};

/** The footer text of one command: exit codes, then environment variables. */
export function helpFooter(command: string): string | undefined {
  const footer = FOOTERS[command];
  if (!footer) return undefined;
  const exits = footer.exits.map(([code, text]) => `  ${String(code).padEnd(4)} ${text}`);
  const vars = [...settingVariables(footer.settings), ...(footer.extra ?? [])];
  const width = Math.max(0, ...vars.map(([name]) => name.length));
  return [
    '',
    'Exit codes:',
    ...exits,
    '',
    'Environment variables (a flag wins over its variable):',
    ...(vars.length > 0 ? vars.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`) : ['  none']),
  ].join('\n');
}

function settingVariables(read: SettingsRead): (readonly [string, string])[] {
  if (read === 'none') return [];
  const entries = Object.entries(ENV_VARS).filter(([, path]) => read === 'all' || read.includes(path));
  return [[CONFIG_FILE_ENV_VAR, 'the settings file (--config)'], ...entries.map(([name, path]) => [name, `setting ${path}`] as const)];
}

/** Adds its footer to every command of the program that has one. */
export function addHelpFooters(program: Command): void {
  for (const command of program.commands) {
    const text = helpFooter(command.name());
    if (text) command.addHelpText('after', text);
  }
}
