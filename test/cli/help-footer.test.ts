// Every command's --help ends with its exit codes and the environment variables it reads.
import { describe, expect, test } from 'vitest';
import { helpFooter } from '../../cli/help-footer.ts';
import { CONFIG_FILE_ENV_VAR, ENV_VARS } from '../../config/env-vars.ts';
import { runCli } from '../hostile/run-cli.ts';

describe('--help footers', () => {
  test('every command has one', async () => {
    const { stdout } = await runCli(['--help']);
    const commands = [...stdout.split('Commands:')[1]!.matchAll(/^ {2}([a-z-]+)/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    expect(commands.length).toBeGreaterThan(10);
    expect(commands.filter((c) => helpFooter(c) === undefined)).toEqual([]);
  });

  test('`run --help` ends with the exit codes and every CONFORMANCE_* variable', async () => {
    const { code, stdout } = await runCli(['run', '--help']);
    expect(code).toBe(0);
    const footer = stdout.slice(stdout.indexOf('Exit codes:'));
    for (const exit of ['0 ', '1 ', '2 ', '3 ', '130']) expect(footer).toMatch(new RegExp(`^ {2}${exit}`, 'm'));
    for (const name of [CONFIG_FILE_ENV_VAR, ...Object.keys(ENV_VARS)]) expect(footer).toContain(name);
  });

  test('`load --help` names the variables load reads, the key among them', async () => {
    const { stdout } = await runCli(['load', '--help']);
    const footer = stdout.slice(stdout.indexOf('Environment variables'));
    for (const name of ['CONFORMANCE_TARGET', 'CONFORMANCE_API_KEY', 'CONFORMANCE_TRIGGER_RPS', 'CONFORMANCE_REPORT_DIR']) expect(footer).toContain(name);
    expect(footer).not.toContain('CONFORMANCE_SECONDARY_API_KEY');
  });
});

describe('`conformance load` reads the target and key from CONFORMANCE_* as `run` does', () => {
  test('CONFORMANCE_TARGET is the target: a remote one is refused without --allow-remote-load', async () => {
    const { code, stdout, stderr } = await runCli(['load', '--profile', 'short', '--scenario', 'trigger-limit', '--duration', '1', '--report-dir', 'reports/load-env'], { CONFORMANCE_TARGET: 'https://api.example.test', CONFORMANCE_API_KEY: 'nk_env_key_0123456789' });
    expect(code).toBe(2);
    expect(stdout + stderr).toContain('refusing to send load to https://api.example.test');
  });

  test('CONFORMANCE_TARGET and CONFORMANCE_API_KEY are the target and key: a closed port is named unreachable', async () => {
    const { code, stdout, stderr } = await runCli(['load', '--profile', 'short', '--scenario', 'trigger-limit', '--duration', '1', '--report-dir', 'reports/load-env'], { CONFORMANCE_TARGET: 'http://127.0.0.1:9', CONFORMANCE_API_KEY: 'nk_env_key_0123456789' });
    expect(code).toBe(2);
    expect(stdout + stderr).toContain('the target http://127.0.0.1:9 is unreachable');
  });
});
