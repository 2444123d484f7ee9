// `conformance report`: rebuilds conformance.html from DIR (so a later load run's charts appear) and builds the
// Allure single-file HTML from DIR/allure-results, offline and without analytics.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';

import { UsageError } from '../cli-error.ts';
import { printLine } from '../terminal.ts';

export function registerReport(program: Command, env: Record<string, string | undefined>): void {
  program
    .command('report')
    .description('build the Allure HTML report (one self-contained file) and refresh conformance.html from a report dir')
    .option('--report-dir <dir>', 'the report dir of a `conformance run` (default reports/)')
    .action(async (flags: { reportDir?: string }) => {
      const [{ resolveSettings }, { AllureReportError, buildAllureReport }, { ARTIFACTS, rewriteReports }] = await Promise.all([
        import('../../config/resolve-settings.ts'),
        import('../../report/allure-report.ts'),
        import('../../report/write-reports.ts'),
      ]);
      const settings = resolveSettings({ env, flags: { 'run.reportDir': flags.reportDir } });
      const dir = settings.run.reportDir;
      const print = printLine;
      if (existsSync(join(dir, ARTIFACTS.conformanceJson))) print(`Conformance page: ${rewriteReports(dir).conformanceHtml}`);
      try {
        print(`Allure report: ${buildAllureReport(dir)}`);
      } catch (error) {
        if (error instanceof AllureReportError) throw new UsageError(error.message);
        throw error;
      }
    });
}
