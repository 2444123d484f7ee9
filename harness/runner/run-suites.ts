// Runs the conformance suites in-process with vitest against one target and returns the records.
// Functional suites run in parallel; rate-limit suites run afterwards, alone, so they disturb nothing else.
import { fileURLToPath } from 'node:url';
import { createVitest, type TestSpecification } from 'vitest/node';
import { redactorFor } from '../http/api-client.ts';
import type { TargetProfile } from '../target-profile.ts';
import { Collector } from './collector.ts';
import type { TestRecord } from './test-record.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SERIAL_SUITES = /[\\/]suites[\\/]rate-limits[\\/]/;

export interface SuiteRun {
  records: TestRecord[];
  errors: string[];
}

export interface RunSuitesOptions {
  profile: TargetProfile;
  /** Only suite files whose path contains one of these strings. */
  files?: string[];
  onRecord?: (record: TestRecord) => void;
}

export async function runSuites(options: RunSuitesOptions): Promise<SuiteRun> {
  const collector = new Collector(redactorFor(options.profile), options.onRecord);
  const vitest = await createVitest(
    'test',
    {
      config: false,
      root: REPO_ROOT,
      run: true,
      watch: false,
      reporters: [collector],
      include: ['suites/**/*.test.ts'],
      provide: { target: options.profile },
      testTimeout: options.profile.timeouts.testMs,
      hookTimeout: options.profile.timeouts.testMs,
      passWithNoTests: true,
    },
    {},
    {},
  );
  await vitest.standalone();
  try {
    const all = (await vitest.globTestSpecifications()).filter((s) => matches(s, options.files));
    const functional = all.filter((s) => !SERIAL_SUITES.test(s.moduleId));
    const serial = all.filter((s) => SERIAL_SUITES.test(s.moduleId));
    if (functional.length > 0) await vitest.runTestSpecifications(functional, false);
    for (const spec of serial) await vitest.runTestSpecifications([spec], false);
  } finally {
    await vitest.close();
  }
  return { records: collector.records, errors: collector.errors };
}

function matches(spec: TestSpecification, files: string[] | undefined): boolean {
  return !files || files.length === 0 || files.some((f) => spec.moduleId.includes(f));
}
