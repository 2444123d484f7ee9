// `npm run docs:figures`: writes every countable figure of the README and docs from the catalog, the shipped files and a
// real run, and takes the README screenshot of that run's conformance.html with headless Chromium.
// The run: `conformance run` against the embedded reference with one fault on, so the page shows a root cause.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../report/suite-info.ts';
import { countableFigures, runFigures, withFigure, type Figure } from './doc-figures.ts';

const SCREENSHOT = 'docs/images/conformance-html.png';
const FAULT = 'recipient-cap-off';

const dir = mkdtempSync(join(tmpdir(), 'docs-figures-'));
try {
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/conformance.js'), 'run', '--fault', FAULT, '--report-dir', dir], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (run.status !== 1) throw new Error(`conformance run --fault ${FAULT} exited ${run.status}, not 1 (non-conformant)`);
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { summary: { tests: { total: number } } };
  const figures: Figure[] = [...countableFigures(), ...runFigures(report.summary.tests.total)];
  for (const file of new Set(figures.map((f) => f.file))) {
    const path = join(REPO_ROOT, file);
    writeFileSync(path, figures.filter((f) => f.file === file).reduce(withFigure, readFileSync(path, 'utf8')));
  }
  screenshot(join(dir, 'conformance.html'), join(REPO_ROOT, SCREENSHOT));
  for (const f of figures) process.stdout.write(`${f.file}: ${f.values.join(', ')}\n`);
  process.stdout.write(`${SCREENSHOT}: conformance.html of \`conformance run --fault ${FAULT}\` (${report.summary.tests.total} tests)\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function screenshot(page: string, png: string): void {
  const browser = ['chromium', 'chromium-browser', 'google-chrome'].find((b) => spawnSync('which', [b]).status === 0);
  if (!browser) throw new Error('no headless Chromium on this machine (Debian: apt-get install chromium)');
  execFileSync(browser, ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--window-size=1200,900', `--screenshot=${png}`, `file://${page}`], { stdio: 'ignore' });
}
