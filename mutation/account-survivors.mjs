// `npm run mutation:survivors [report.json]`: holds the last mutation run's report against the ledger again, after the
// ledger (docs/mutation-survivors.md) changed, without running a mutant. Exit 1 while a survivor is not accounted for or a row
// contradicts the report (it lists a killed mutant, or fits several).
import { existsSync, readFileSync } from 'node:fs';
import { accountReport } from './survivors-reporter.mjs';

const reportPath = process.argv[2] ?? 'reports/mutation/mutation.json';
if (!existsSync(reportPath)) {
  console.error(`No mutation report at ${reportPath}: run \`npm run mutation\` first (or name a report).`);
  process.exit(2);
}
try {
  const account = accountReport(JSON.parse(readFileSync(reportPath, 'utf8')));
  process.exit(account.unaccounted.length || account.ledgerErrors.length ? 1 : 0);
} catch (error) {
  console.error(`mutation:survivors: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
