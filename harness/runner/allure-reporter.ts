// The allure-vitest reporter as a conformance run uses it: rule, level and area labels from each test's
// conformance meta (so skipped tests carry them too), deselected tests left out, and every file it writes
// passed through the run's redactor — a failed assertion can quote a response that carried a key.
import { rmSync } from 'node:fs';
import type { Label } from 'allure-js-commons';
import type { RuntimeMessage } from 'allure-js-commons/sdk';
import type { Writer } from 'allure-js-commons/sdk/reporter';
import AllureVitestReporter from 'allure-vitest/reporter';
import type { RunnerTask } from 'vitest';
import type { Vitest } from 'vitest/node';
import { AREAS, isRuleId, requirement } from '../../requirements/index.ts';
import type { Redactor } from '../../report/redactor.ts';
import { metadataMessage } from '../../report/allure-labels.ts';
import '../conformance/meta.ts';

/** A run starts from an empty results dir, so the Allure report shows that run only. */
export function cleanAllureResults(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}


export class ConformanceAllureReporter extends AllureVitestReporter {
  private redactor: Redactor | undefined;

  constructor(resultsDir: string) {
    // Matcher steps would quote response values into step names; the exchanges are attached instead.
    super({ resultsDir, reportMatchers: false });
  }

  /** Set per run: the keys of the run's target. */
  useRedactor(redactor: Redactor): void {
    this.redactor = redactor;
  }

  override onInit(vitest: Vitest): void {
    super.onInit(vitest);
    const runtime = (this as unknown as { allureReporterRuntime: { writer: Writer } }).allureReporterRuntime;
    runtime.writer = redactingWriter(runtime.writer, () => this.redactor);
  }

  override handleTask(task: RunnerTask): void {
    if (task.type === 'test') {
      const meta = task.meta.conformance;
      if (meta?.outcome === 'deselected') return;
      if (meta) {
        const messages = (task.meta as { allureRuntimeMessages?: RuntimeMessage[] }).allureRuntimeMessages ?? [];
        (task.meta as { allureRuntimeMessages?: RuntimeMessage[] }).allureRuntimeMessages = [metadataMessage(meta.rules, meta.level, meta.reason), ...messages];
      }
    }
    super.handleTask(task);
  }
}

/** Every string of every result, container and attachment goes through the redactor before it reaches disk. */
export function redactingWriter(inner: Writer, redactor: () => Redactor | undefined): Writer {
  const text = (s: string) => redactor()?.text(s) ?? s;
  const deep = <T>(value: T): T => redactDeep(value, text) as T;
  return {
    writeResult: (result) => inner.writeResult(deep(result)),
    writeGroup: (group) => inner.writeGroup(deep(group)),
    writeAttachment: (name, content) => inner.writeAttachment(name, Buffer.from(text(content.toString('utf8')), 'utf8')),
    writeAttachmentFromPath: (name, from) => inner.writeAttachmentFromPath(name, from),
    writeEnvironmentInfo: (info) => inner.writeEnvironmentInfo(deep(info)),
    writeCategoriesDefinitions: (categories) => inner.writeCategoriesDefinitions(deep(categories)),
    writeGlobals: (name, globals) => inner.writeGlobals(name, deep(globals)),
  };
}

function redactDeep(value: unknown, text: (s: string) => string): unknown {
  if (typeof value === 'string') return text(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, text));
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, text)]));
  }
  return value;
}
