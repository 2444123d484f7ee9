// Stryker reporter plugin: at the end of a run, holds the survivors against the ledger in docs/mutation-survivors.md
// (mutation/survivor-ledger.mjs) and prints both scores — Stryker's, and the one without the listed equivalents — with
// every survivor not accounted for. Also written to reports/mutation/survivors.json.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';
import { accountSurvivors, formatAccount, parseLedger } from './survivor-ledger.mjs';

export const LEDGER_PATH = 'docs/mutation-survivors.md';
export const ACCOUNT_PATH = 'reports/mutation/survivors.json';
/** The long-checks pass's report (mutation/stryker.long-checks.config.mjs); `npm run mutation` runs that pass first. */
export const LONG_CHECKS_REPORT_PATH = 'reports/mutation/long-checks/mutation.json';

/** Reads the ledger, accounts the report's survivors, prints the summary and writes it beside Stryker's reports. */
export function accountReport(report, { ledgerPath = LEDGER_PATH, accountPath = ACCOUNT_PATH, longChecksPath = LONG_CHECKS_REPORT_PATH, print = console.log } = {}) {
  const longChecks = existsSync(longChecksPath) ? JSON.parse(readFileSync(longChecksPath, 'utf8')) : undefined;
  if (!longChecks) print(`No long-checks report at ${longChecksPath}: the survivors only those checks can kill count as not accounted for (\`npx stryker run mutation/stryker.long-checks.config.mjs\`)`);
  const account = accountSurvivors(report, parseLedger(readFileSync(ledgerPath, 'utf8')), longChecks);
  print(formatAccount(account, ledgerPath));
  mkdirSync(accountPath.replace(/\/[^/]+$/, ''), { recursive: true });
  const { stale, moved, ...rest } = account;
  const where = ({ file, start, end, mutator, docLine }) => ({ file, start, end, mutator, docLine });
  writeFileSync(accountPath, `${JSON.stringify({ ...rest, stale: stale.map(where), moved: moved.map(where) }, null, 2)}\n`);
  return account;
}

class SurvivorsReporter {
  onMutationTestReportReady(report) {
    // why: a row that lists a killed mutant, or fits several, is an error of the run, not a line to scroll past
    if (accountReport(report).ledgerErrors.length) process.exitCode = 1;
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'survivors', SurvivorsReporter)];
