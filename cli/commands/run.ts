// `conformance run`: resolves settings, runs the suites against the target and exits 0 / 1 / 2 / 3 (README § exit codes).
import type { Command } from 'commander';
import { EXIT, UsageError } from '../cli-error.ts';
import { appendFileSync } from 'node:fs';
import { runDocument } from '../json-documents.ts';
import { addFormatOptions, outputOf, printJson, type FormatFlags } from '../output-format.ts';
import { collect, commaList, integerOption } from '../options.ts';
import { EXIT_INTERRUPTED, withInterruption } from '../interrupt.ts';
import { progressPrinter, printSummary } from '../progress.ts';
import { addNetworkOptions, describeNetwork, networkFlags, type NetworkFlags } from '../network-options.ts';
import { addSigningOptions, signingMethod, type SigningFlags } from '../signing-options.ts';
import { parseFaults } from './reference.ts';

interface RunFlags extends SigningFlags, NetworkFlags, FormatFlags {
  target?: string;
  regionalTarget?: string;
  apiKey?: string;
  secondaryApiKey?: string;
  restrictedApiKey?: string;
  config?: string;
  reportDir?: string;
  rules?: string[];
  fault: string[];
  bundle?: string | boolean;
  readOnly?: boolean;
  /** false with --no-drain (commander's negated option). */
  drain?: boolean;
  longChecks?: boolean;
  expectations?: string;
  repeat?: number;
  targetImage?: string;
  targetPort?: number;
  targetEnv: string[];
  waitPath?: string;
  loadFollows?: boolean;
  /** false with --no-regional-endpoint. */
  regionalEndpoint?: boolean;
  transportRetries?: number;
}

export function registerRun(program: Command, env: Record<string, string | undefined>, setExit: (code: number) => void): void {
  const command = program
    .command('run')
    .description('run the conformance suites against a target (default: the embedded reference)')
    .option('--target <url>', 'base URL of the implementation under test')
    .option('--regional-target <url>', 'the regional base address of the same target (VER-02)')
    .option('--no-regional-endpoint', 'the target has no regional base address: VER-02 is not applicable (a declaration, printed on every report)')
    .option('--api-key <key>', 'API key of the primary environment')
    .option('--secondary-api-key <key>', 'API key of another environment of the same organization')
    .option('--restricted-api-key <key>', 'API key that authenticates but may not write')
    .option('--config <file>', 'YAML or JSON settings file (${ENV} placeholders allowed)')
    .option('--report-dir <dir>', 'where conformance.json is written (default reports/)')
    .option('--rules <ids>', 'only these rule IDs, comma-separated', commaList)
    .option('--fault <name>', 'embedded reference only: switch on a deliberate fault (repeatable)', collect, [])
    .option('--read-only', 'only the checks that change nothing on the target (safe for shared staging)')
    .option('--no-drain', 'no test exhausts a rate-limit bucket (shared staging: nobody else gets throttled); those tests are not verified')
    .option('--long-checks', 'also the checks that wait on the target\'s clock (IDEM-02: a keyed request repeated 25 s later); longer run')
    .option('--expectations <file>', 'YAML baseline of known gaps: rule ID or test name → fail | [pass, fail] | {skip: reason}')
    .option('--target-image <image>', 'start the candidate from this container image (testcontainers) and run against it')
    .option('--target-port <n>', 'the port the image serves HTTP on (default 3000)', integerOption('--target-port', 1, 65535))
    .option('--target-env <K=V>', 'environment variable for the container (repeatable)', collect, [])
    .option('--wait-path <path>', 'path polled until the container answers HTTP (default /v1/environments)')
    .option('--transport-retries <n>', 'how often a test that met a connection reset, refusal or no answer runs again from the start (default 2)', integerOption('--transport-retries', 0, 10))
    .option('--repeat <n>', 'run the suites n times and report every rule whose verdict changed', integerOption('--repeat', 1, 100))
    .option('--bundle [file]', 'also write a certification bundle (default REPORT_DIR/conformance-bundle.tar.gz)')
    .option('--load-follows', '`conformance load` runs next and merges RL-05: exit 0 when only rules it verifies are left not verified');
  addFormatOptions(addSigningOptions(addNetworkOptions(command))).action(async (flags: RunFlags) => {
      const output = outputOf(flags);
      parseFaults(flags.fault);
      const signing = signingMethod(flags, env);
      if (signing && !flags.bundle) throw new UsageError(`${flags.signKey ? '--sign-key' : '--sign'} signs the certification bundle: add --bundle`);
      // Loaded here, not at start: the runner brings vitest, and `--version` or `reference` need none of it.
      const [{ resolveSettings }, { writeBundleFromDir, KeyInBundleError }, { runConformance }, { SigningError }, { gateVerdict }, { stepSummaryMarkdown }] = await Promise.all([
        import('../../config/resolve-settings.ts'),
        import('../../certify/write-bundle.ts'),
        import('../../harness/runner/conformance-run.ts'),
        import('../../certify/sign-attestation.ts'),
        import('../../report/gate.ts'),
        import('../../report/step-summary.ts'),
      ]);
      const settings = resolveSettings({
        env,
        ...(flags.config ? { configFile: flags.config } : {}),
        flags: {
          'target.baseUrl': flags.target,
          'target.regionalBaseUrl': flags.regionalTarget,
          'target.apiKey': flags.apiKey,
          'target.secondaryApiKey': flags.secondaryApiKey,
          'target.restrictedApiKey': flags.restrictedApiKey,
          'run.reportDir': flags.reportDir,
          'run.rules': flags.rules,
          'reference.faults': flags.fault.length > 0 ? flags.fault : undefined,
          'run.readOnly': flags.readOnly,
          'run.noDrain': flags.drain === false ? true : undefined,
          'run.longChecks': flags.longChecks,
          'run.expectations': flags.expectations,
          'run.repeat': flags.repeat,
          'target.image': flags.targetImage,
          'target.imagePort': flags.targetPort,
          'target.imageEnv': flags.targetEnv.length > 0 ? parseEnvPairs(flags.targetEnv) : undefined,
          'target.waitPath': flags.waitPath,
          'run.loadFollows': flags.loadFollows,
          'features.regionalEndpoint': flags.regionalEndpoint === false ? false : undefined,
          'run.transportRetries': flags.transportRetries,
          ...networkFlags(flags),
        },
      });
      const print = output.print;
      const network = describeNetwork(settings.network, settings.target.baseUrl);
      if (network) print(network);
      const onFirst = 'no new test starts; running tests get up to 15 s to finish, then the final sweep removes what the run created and every report is written.';
      const outcome = await withInterruption(print, onFirst, (interruption) => runConformance(settings, { log: print, onRecord: progressPrinter(print), interruption }, undefined, env));
      printSummary(outcome.report, print);
      for (const u of outcome.expectations?.unexpected ?? []) print(`UNEXPECTED ${u.kind === 'unexpected-pass' ? 'PASS' : 'RESULT'}: ${u.key} is ${u.actual}, the baseline expects ${u.expected.join(' or ')}`);
      for (const key of outcome.expectations?.unused ?? []) print(`Baseline entry names nothing in this run: ${key}`);
      for (const u of outcome.unstable) print(`UNSTABLE across ${outcome.report.repeat?.runs} runs: ${u.id} ${u.verdicts.join(' → ')}`);
      if (outcome.report.repeat && outcome.unstable.length === 0) print(`Every rule had the same verdict in all ${outcome.report.repeat.runs} runs.`);
      if (settings.run.loadFollows && outcome.report.summary.verdict === 'incomplete' && outcome.exitCode === EXIT.ok) {
        print(`Exit 0 under --load-follows: \`conformance load --report-dir ${settings.run.reportDir}\` must merge ${outcome.report.summary.unverifiedMust.map((r) => r.id).join(', ')} to complete this run.`);
      }
      print(`Report: ${outcome.reportFile} (also junit.xml, conformance.html, allure-results/; \`conformance report\` builds the Allure HTML)`);
      let bundle: string | undefined;
      if (flags.bundle) {
        try {
          const file = (bundle = await writeBundleFromDir(settings.run.reportDir, { settings, ...(typeof flags.bundle === 'string' ? { file: flags.bundle } : {}), ...(signing ? { signing } : {}) }));
          print(`Bundle: ${file}${signing ? ' (signed: attestation.sigstore.json)' : ' (unsigned: add --sign-key FILE or --sign keyless to certify)'}`);
        } catch (error) {
          if (!(error instanceof SigningError) && !(error instanceof KeyInBundleError)) throw error;
          process.stderr.write(`conformance: ${error.message}\nconformance: no bundle written; the report is in ${settings.run.reportDir}/ — \`conformance bundle --report-dir ${settings.run.reportDir}\` signs it later\n`);
          return setExit(EXIT.usage);
        }
      }
      if (outcome.report.summary.interrupted) print(`INTERRUPTED: the verdicts above are those reached before the stop (summary.interrupted: true); rules no test reached are not verified. Exit ${EXIT_INTERRUPTED}.`);
      // a staging gate ends with its own verdict: the report's (often INCOMPLETE) stays above it
      const gate = gateVerdict(outcome.report);
      if (gate) print(gate.line);
      appendStepSummary(env, stepSummaryMarkdown(outcome.report));
      if (output.json) printJson(runDocument(outcome.report, outcome.exitCode, outcome.reportFile, bundle));
      setExit(outcome.exitCode);
    });
}

function parseEnvPairs(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--target-env takes KEY=VALUE, got "${pair}"`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** On GitHub Actions the job's summary page shows the verdict; a summary that cannot be written only warns. */
export function appendStepSummary(env: Record<string, string | undefined>, markdown: string): void {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  try {
    appendFileSync(file, markdown);
  } catch (error) {
    process.stderr.write(`conformance: could not append the summary to GITHUB_STEP_SUMMARY (${(error as NodeJS.ErrnoException).code ?? 'error'}); the reports are written\n`);
  }
}
