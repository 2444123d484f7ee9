// The allure-vitest reporter as a conformance run uses it: rule, level and area labels from each test's
// conformance meta (so skipped tests carry them too), deselected tests left out, and every file it writes
// passed through the run's redactor — a failed assertion can quote a response that carried a key.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RuntimeMessage } from 'allure-js-commons/sdk';
import { stringifyEnvInfo, type Writer } from 'allure-js-commons/sdk/reporter';
import AllureVitestReporter from 'allure-vitest/reporter';
import type { RunnerTask } from 'vitest';
import type { TestModule, Vitest } from 'vitest/node';
import type { Redactor } from '../../report/redactor.ts';
import { metadataMessage, warningWriter } from '../../report/allure-labels.ts';
import '../conformance/meta.ts';

/** A run starts from an empty results dir, so the Allure report shows that run only. */
export function cleanAllureResults(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}


export class ConformanceAllureReporter extends AllureVitestReporter {
  private redactor: Redactor | undefined;
  private readonly files: ReturnType<typeof plainFileWriter>;
  /** Suite files whose results are handed to the writer as the file ends, not all at the run's end (thousands of files to create). */
  private readonly handedOver = new Set<string>();

  constructor(resultsDir: string) {
    // Matcher steps would quote response values into step names; the exchanges are attached instead.
    super({ resultsDir, reportMatchers: false });
    this.files = plainFileWriter(resultsDir);
  }

  /** Set per run: the keys of the run's target. */
  useRedactor(redactor: Redactor): void {
    this.redactor = redactor;
  }

  override onInit(vitest: Vitest): void {
    super.onInit(vitest);
    const runtime = (this as unknown as { allureReporterRuntime: { writer: Writer } }).allureReporterRuntime;
    runtime.writer = redactingWriter(warningWriter(this.files), () => this.redactor);
  }

  /** Resolves once every result file of the run is on disk (they are written in the background). */
  written(): Promise<void> {
    return this.files.settled();
  }

  onTestModuleEnd(module: TestModule): void {
    this.handedOver.add(module.moduleId);
    // the module's runner task, as allure-vitest's own onTestRunEnd reads it (internal to vitest, so not typed)
    this.handleTask((module as unknown as { task: RunnerTask }).task);
  }

  override onTestRunEnd(modules: readonly TestModule[]): void {
    super.onTestRunEnd(modules.filter((m) => !this.handedOver.has(m.moduleId)));
    this.handedOver.clear();
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

/**
 * Allure's own FileSystemWriter fsyncs and renames each of the run's thousands of files, blocking for seconds the
 * thread that also serves the embedded reference. The results are read only after the run: plain writes do, in the
 * background (a file can take a millisecond to create on a busy disk); `settled()` waits for them.
 */
export function plainFileWriter(resultsDir: string): Writer & { settled(): Promise<void> } {
  let made = false;
  const pending = new Set<Promise<void>>();
  const failures: unknown[] = [];
  const write = (name: string, data: string | Buffer) => {
    if (!made) mkdirSync(resultsDir, { recursive: true });
    made = true;
    const done: Promise<void> = writeFile(join(resultsDir, name), data)
      .catch((error: unknown) => void failures.push(error))
      .finally(() => pending.delete(done));
    pending.add(done);
  };
  return {
    writeResult: (result) => write(`${result.uuid}-result.json`, JSON.stringify(result)),
    writeGroup: (group) => write(`${group.uuid}-container.json`, JSON.stringify(group)),
    writeAttachment: (name, content) => write(name, content),
    writeAttachmentFromPath: (name, from) => write(name, readFileSync(from)),
    writeEnvironmentInfo: (info) => write('environment.properties', stringifyEnvInfo(info)),
    writeCategoriesDefinitions: (categories) => write('categories.json', JSON.stringify(categories)),
    writeGlobals: (name, globals) => write(name, JSON.stringify(globals)),
    settled: async () => {
      while (pending.size > 0) await Promise.all(pending);
      if (failures.length > 0) throw new Error(`Allure results could not be written to ${resultsDir}: ${String(failures[0])}`);
    },
  };
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
