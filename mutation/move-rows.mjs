// `npm run mutation:move-rows [report.json]`: after the reference's lines moved, puts each ledger row whose code is no
// longer at its place at the place of an unaccounted survivor of the last run that its code and mutation fit — the
// nearest one, each row and survivor used once — in docs/mutation-survivors.md. It changes only the `at` cell; then
// `npm run mutation:survivors` accounts the report again (and says which rows or survivors are left for a person).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { accountSurvivors, movedRowFits, parseLedger } from './survivor-ledger.mjs';
import { LEDGER_PATH, LONG_CHECKS_REPORT_PATH } from './survivors-reporter.mjs';

const reportPath = process.argv[2] ?? 'reports/mutation/mutation.json';
if (!existsSync(reportPath)) {
  console.error(`No mutation report at ${reportPath}: run \`npm run mutation\` first (or name a report).`);
  process.exit(2);
}
const markdown = readFileSync(LEDGER_PATH, 'utf8');
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
// the long-checks pass's kills are detected, as the run's own account counts them, not survivors to place a row at
const longChecks = existsSync(LONG_CHECKS_REPORT_PATH) ? JSON.parse(readFileSync(LONG_CHECKS_REPORT_PATH, 'utf8')) : undefined;
const account = accountSurvivors(report, parseLedger(markdown), longChecks);
// Each moved row with the unaccounted survivors its code and mutation fit; pairs are made nearest first (lines move
// by a few when code is added above), each row and each survivor used once.
const pairs = [];
for (const row of account.moved) {
  for (const s of account.unaccounted) {
    if (!movedRowFits(row, s, report.files[s.file].source)) continue;
    pairs.push({ row, s, distance: Math.abs(s.line - row.start.line) * 1000 + Math.abs(s.column - row.start.column) });
  }
}
pairs.sort((a, b) => a.distance - b.distance);
const lines = markdown.split('\n');
const usedRows = new Set();
const usedSurvivors = new Set();
let moved = 0;
for (const { row, s } of pairs) {
  if (usedRows.has(row.docLine) || usedSurvivors.has(`${s.file}#${s.id}`)) continue;
  usedRows.add(row.docLine);
  usedSurvivors.add(`${s.file}#${s.id}`);
  const at = `${s.line}:${s.column}-${s.end.line}:${s.end.column}`;
  // the first cell of the row: `| 12:3-12:9 |` or `` | `12:3-12:9` | ``
  lines[row.docLine - 1] = lines[row.docLine - 1].replace(/^(\|\s*`?)\d+:\d+-\d+:\d+(`?\s*\|)/, `$1${at}$2`);
  moved++;
}
writeFileSync(LEDGER_PATH, lines.join('\n'));
console.log(`${moved} row(s) moved to the place of the survivor they fit (nearest first); ${account.moved.length - moved} moved row(s) fit no survivor; ${account.unaccounted.length - moved} survivor(s) fit no row.`);
