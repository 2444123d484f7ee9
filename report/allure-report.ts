// `conformance report`: the Allure 3 single-file HTML from DIR/allure-results, built offline, with the
// analytics tag Allure embeds removed (a report of a vendor's API must not call anyone on opening).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SPEC_VERSION } from '../requirements/index.ts';

export const ALLURE_RESULTS = 'allure-results';
export const ALLURE_REPORT = 'allure-report';

export function allureResultsDir(reportDir: string): string {
  return join(reportDir, ALLURE_RESULTS);
}

export class AllureReportError extends Error {}

export function buildAllureReport(reportDir: string): string {
  const results = resolve(allureResultsDir(reportDir));
  if (!existsSync(results) || readdirSync(results).length === 0) {
    throw new AllureReportError(`no Allure results in ${results}: run \`conformance run --report-dir ${reportDir}\` first`);
  }
  const output = resolve(reportDir, ALLURE_REPORT);
  rmSync(output, { recursive: true, force: true });
  const work = mkdtempSync(join(tmpdir(), 'conformance-allure-'));
  try {
    const config = join(work, 'allurerc.mjs');
    const name = `Notification API ${SPEC_VERSION} conformance`;
    const options = { singleFile: true, reportName: name, groupBy: ['epic', 'feature'] };
    writeFileSync(config, `export default ${JSON.stringify({ name, output, plugins: { awesome: { options } } }, null, 2)};\n`);
    // cwd is the scratch dir, so Allure's history and caches never land in the user's tree.
    const run = spawnSync(process.execPath, [allureCli(), 'generate', '--config', config, '--output', output, results], { cwd: work, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    if (run.status !== 0) throw new AllureReportError(`allure generate failed (exit ${run.status ?? run.signal}): ${(run.stderr || run.stdout).trim().slice(-2000)}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const index = join(output, 'index.html');
  if (!existsSync(index)) throw new AllureReportError(`allure generate wrote no ${index}`);
  writeFileSync(index, stripAnalytics(readFileSync(index, 'utf8')));
  return index;
}

/** Removes Google Analytics (the loader and the inline gtag set-up); fails loudly if a new Allure adds it elsewhere. */
export function stripAnalytics(page: string): string {
  const stripped = page
    .replace(/<script[^>]*\bsrc="https:\/\/www\.googletagmanager\.com\/[^"]*"[^>]*>\s*<\/script>\s*/g, '')
    .replace(/<script>((?:(?!<\/script>)[\s\S])*)<\/script>\s*/g, (tag, body: string) => (/\bgtag\(|dataLayer/.test(body) ? '' : tag));
  if (/googletagmanager|gtag\(/.test(stripped)) throw new AllureReportError('the Allure report still contains an analytics tag after stripping; this Allure version embeds it differently');
  return stripped;
}

function allureCli(): string {
  let entry: string;
  try {
    entry = fileURLToPath(import.meta.resolve('allure'));
  } catch {
    throw new AllureReportError('the `allure` package (Allure 3) is not installed: npm install');
  }
  // allure's package entry is dist/index.js; its command line is cli.js at the package root.
  const cli = join(dirname(entry), '..', 'cli.js');
  if (!existsSync(cli)) throw new AllureReportError(`Allure's command line is not at ${cli}`);
  return cli;
}
