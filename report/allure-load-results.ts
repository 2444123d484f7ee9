// The load harness's tests as Allure results beside the suite's, written when `conformance load` merges its
// verdicts: the Allure report then agrees with conformance.json and junit.xml. A re-merge replaces them.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Stage, Status } from 'allure-js-commons';
import { FileSystemWriter, ReporterRuntime } from 'allure-js-commons/sdk/reporter';
import { allureResultsDir } from './allure-report.ts';
import { metadataMessage, warningWriter } from './allure-labels.ts';
import type { RuleTest } from './verdicts.ts';

/** Every load result carries this fullName prefix, so the next merge can find and replace it. */
const LOAD_FULL_NAME = 'conformance load: ';

const STATUS: Record<RuleTest['status'], Status> = { passed: Status.PASSED, failed: Status.FAILED, 'not-verified': Status.SKIPPED, 'not-applicable': Status.SKIPPED };

export function writeLoadAllureResults(reportDir: string, tests: { rule: string; test: RuleTest }[], at: Date): number {
  const dir = allureResultsDir(reportDir);
  removeLoadResults(dir);
  const runtime = new ReporterRuntime({ writer: warningWriter(new FileSystemWriter({ resultsDir: dir })) });
  for (const { rule, test } of tests) {
    const uuid = runtime.startTest({
      name: test.name,
      fullName: `${LOAD_FULL_NAME}${test.name}`,
      status: STATUS[test.status],
      statusDetails: test.message ? { message: test.message } : {},
      stage: Stage.FINISHED,
      start: at.getTime(),
    });
    runtime.applyRuntimeMessages(uuid, [metadataMessage([rule], test.level, test.status === 'passed' || test.status === 'failed' ? undefined : test.message)]);
    runtime.stopTest(uuid, { stop: at.getTime() + test.durationMs });
    runtime.writeTest(uuid);
  }
  return tests.length;
}

function removeLoadResults(dir: string): void {
  if (!existsSync(dir)) return;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('-result.json'))) {
    const path = join(dir, file);
    try {
      if ((JSON.parse(readFileSync(path, 'utf8')) as { fullName?: string }).fullName?.startsWith(LOAD_FULL_NAME)) rmSync(path);
    } catch {
      // not a result this harness wrote: leave it
    }
  }
}
