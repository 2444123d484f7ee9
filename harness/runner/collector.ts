// A vitest reporter that turns finished test cases into TestRecords and keeps module-level errors.
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import type { Redactor } from '../../report/redactor.ts';
import type { TestRecord } from '../../report/test-record.ts';
import { lostToNetwork } from '../http/api-client.ts';
import '../conformance/meta.ts';

/** The note vitest gives tests it cancels (@vitest/runner, TestRunAbortError). */
const CANCELLED_NOTE = 'The test run was aborted by the user.';

export class Collector implements Reporter {
  readonly records: TestRecord[] = [];
  readonly errors: string[] = [];
  /** Transport faults of requests whose rejection no test awaited in time: the network's, not errors of the run. */
  readonly strayTransportFaults: string[] = [];
  /** When the buckets the suites exhausted are full again (epoch ms; see RefillGate). */
  bucketsFullAt: number | undefined;
  /** Set when the run is cancelled (timeouts.runMs): tests that never started are then no error of their own. */
  stopped = false;
  private readonly names = new Map<string, string>();
  private readonly started = new Set<string>();

  constructor(
    private readonly redactor: Redactor,
    private readonly onRecord?: (record: TestRecord) => void,
  ) {}

  /** Tests that started and have not finished (what a second Ctrl-C may leave behind). */
  get running(): string[] {
    return [...this.started];
  }

  onTestCaseReady(test: TestCase): void {
    this.started.add(test.name);
  }

  onTestCaseResult(test: TestCase): void {
    this.started.delete(test.name);
    const meta = test.meta().conformance;
    const result = test.result();
    // A test vitest cancelled before it began (a stopped run past its grace period): nothing ran, nothing to report.
    // why: in a stopped run, a test cut off before the conformance() wrapper began is cut off, whatever state vitest gives it
    if (!meta && (this.stopped || (result.state === 'skipped' && result.note === CANCELLED_NOTE))) return;
    if (!meta) {
      const why = result.state === 'failed' ? result.errors.map((e) => e.message).join('; ') : 'it is not a conformance() test; every suite test must name its rule';
      this.errors.push(this.redactor.text(`${test.fullName} (${test.module.relativeModuleId}) has no verdict: ${why}`));
      return;
    }
    if (result.state === 'pending') return;
    // Test names are the keys of reports and expectation files, so two tests may never share one.
    const seenIn = this.names.get(test.name);
    if (seenIn !== undefined) this.errors.push(`duplicate test name "${test.name}" in ${seenIn} and ${test.module.relativeModuleId}`);
    this.names.set(test.name, test.module.relativeModuleId);
    const record: TestRecord = {
      name: test.name,
      file: test.module.relativeModuleId,
      rules: meta.rules,
      state: result.state,
      durationMs: Math.round(test.diagnostic()?.duration ?? 0),
      observations: meta.observations ?? [],
      evidence: (meta.evidence ?? []).map((e) => this.redactor.text(e)),
      leaks: meta.leaks ?? [],
      notes: meta.notes ?? [],
    };
    if (meta.level) record.level = meta.level;
    if (meta.outcome) record.outcome = meta.outcome;
    if (meta.reason) record.reason = this.redactor.text(meta.reason);
    if (meta.transport) record.transport = { tries: meta.transport.tries, faults: meta.transport.faults.map((f) => this.redactor.text(f)) };
    if (result.state === 'failed') record.message = this.redactor.text(result.errors.map((e) => e.message).join('\n'));
    this.records.push(record);
    this.onRecord?.(record);
  }

  onTestModuleEnd(module: TestModule): void {
    const fullAt = module.meta().bucketsFullAt;
    if (fullAt !== undefined) this.bucketsFullAt = Math.max(this.bucketsFullAt ?? 0, fullAt);
    for (const error of module.errors()) {
      this.errors.push(this.redactor.text(`${module.relativeModuleId}: ${error.message}`));
    }
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<{ message?: string }>): void {
    for (const error of unhandled) {
      // why: the test that sent it met the same fault where it awaited the answer, and was judged there (transport-retry.ts)
      if (lostToNetwork(error)) this.strayTransportFaults.push(this.redactor.text(error.message ?? ''));
      else this.errors.push(this.redactor.text(`unhandled error: ${error.message ?? String(error)}`));
    }
  }
}
