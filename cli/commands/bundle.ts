// `conformance bundle`: packages (and signs) what `run` and a following `load` left in the report dir — the way
// to certify a run whose RL-05 only the load verifies. Exit 0 written, 2 when the dir or the signing is not usable.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { SECRET_PLACEHOLDERS } from '../../config/env-vars.ts';
import { UsageError } from '../cli-error.ts';
import { escapeTerminal } from '../../report/markup.ts';
import { addSigningOptions, signingMethod, type SigningFlags } from '../signing-options.ts';

interface BundleFlags extends SigningFlags {
  reportDir?: string;
  out?: string;
}

export function registerBundle(program: Command, env: Record<string, string | undefined>): void {
  const command = program
    .command('bundle')
    .description('write the certification bundle of a report dir (after `run` and `load`), signed with --sign-key or --sign keyless')
    .option('--report-dir <dir>', 'the report dir of a `conformance run` (default reports/)')
    .option('--out <file>', 'where the bundle goes (default REPORT_DIR/conformance-bundle.tar.gz)');
  addSigningOptions(command).action(async (flags: BundleFlags) => {
    // Loaded here, not at start: the report writers bring tar and the Sigstore signer.
    const [{ resolveSettings }, { SigningError }, { ARTIFACTS }, { writeBundleFromDir, KeyInBundleError, RunCodeNotReleasedError }] = await Promise.all([
      import('../../config/resolve-settings.ts'),
      import('../../certify/sign-attestation.ts'),
      import('../../report/write-reports.ts'),
      import('../../certify/write-bundle.ts'),
    ]);
    // the keys come from the environment (and a config file), not from configuration.json, which holds them redacted;
    // why: without a target in the environment, keys alone are a settings error that must not stop packaging
    const keyVars = Object.values(SECRET_PLACEHOLDERS) as string[];
    const withoutKeys = Object.fromEntries(Object.entries(env).filter(([name]) => !keyVars.includes(name)));
    let settings: ReturnType<typeof resolveSettings>;
    try {
      settings = resolveSettings({ env, flags: { 'run.reportDir': flags.reportDir } });
    } catch {
      settings = resolveSettings({ env: withoutKeys, flags: { 'run.reportDir': flags.reportDir } });
    }
    const dir = settings.run.reportDir;
    const missing = [ARTIFACTS.conformanceJson, ARTIFACTS.junitXml, ARTIFACTS.configuration].filter((name) => !existsSync(join(dir, name)));
    if (missing.length > 0) throw new UsageError(`--report-dir ${dir} holds no complete run (missing ${missing.join(', ')}): run \`conformance run --report-dir ${dir}\` first`);
    const signing = signingMethod(flags, env);
    try {
      const { apiKey, secondaryApiKey, restrictedApiKey } = settings.target;
      const file = await writeBundleFromDir(dir, { onWarning: (line) => process.stderr.write(`conformance bundle: warning: ${escapeTerminal(line)}\n`), keys: [apiKey, secondaryApiKey, restrictedApiKey, ...keyVars.map((name) => env[name])], ...(flags.out ? { file: flags.out } : {}), ...(signing ? { signing } : {}) });
      process.stdout.write(`Bundle: ${file}${signing ? ' (signed: attestation.sigstore.json)' : ' (unsigned: add --sign-key FILE or --sign keyless to certify)'}\n`);
    } catch (error) {
      if (error instanceof KeyInBundleError || error instanceof RunCodeNotReleasedError) throw new UsageError(error.message);
      if (error instanceof SigningError) throw new UsageError(`${error.message}; no bundle written`);
      if (error instanceof SyntaxError) throw new UsageError(`--report-dir ${dir}: a report file is not JSON (${error.message}); no bundle written`);
      throw error;
    }
  });
}
