// Sends the sequence to the candidate and to the reference (one after the other, the same requests), normalizes
// both answers of each operation and lists every difference; what each side created is removed.
import { Provisioner } from '../fixtures/provision.ts';
import { Cleanup } from '../harness/conformance/cleanup.ts';
import type { Leak } from '../report/test-record.ts';
import { SequentialIdFactory } from '../harness/conformance/ids.ts';
import { Skip } from '../harness/conformance/skip.ts';
import { ApiClient, ExchangeFailed } from '../harness/http/api-client.ts';
import type { TargetProfile } from '../harness/target-profile.ts';
import { unwrapData } from '../schemas/route-map.ts';
import { differences, normalize, type Difference } from './normalize.ts';
import { DIFF_SEQUENCE, type DiffStep } from './sequence.ts';

/** What one side answered to one operation, or why the operation could not be sent there. */
export type Answer = { status: number; body: unknown } | { setup: string };

export interface SideRun {
  answers: Map<string, Answer>;
  leaks: string[];
}

export interface DiffResult {
  operations: { operation: string; reference: string; candidate: string; differences: number }[];
  differences: Difference[];
  leaks: { side: 'reference' | 'candidate'; leak: string }[];
}

export async function runSequence(profile: TargetProfile, steps: readonly DiffStep[] = DIFF_SEQUENCE): Promise<SideRun> {
  const api = new ApiClient(profile);
  const cleanup = new Cleanup(api);
  const ids = new SequentialIdFactory(profile.runPrefix);
  const ctx = { provision: new Provisioner(api, cleanup, ids), cleanup, ids };
  const answers = new Map<string, Answer>();
  let leaks: Leak[] = [];
  try {
    for (const step of steps) {
      try {
        const request = await step.prepare(ctx);
        const res = await api.request(request.method, request.path, {
          ...(request.body !== undefined ? { body: request.body } : {}),
          ...(request.query ? { query: request.query } : {}),
        });
        // the side's own keys never reach a report, even where an answer carries them outside `apiKeys`
        const text = api.redactor.body(res.text);
        answers.set(step.operation, { status: res.status, body: res.json === undefined ? text : unwrapData(JSON.parse(text)) });
      } catch (error) {
        if (error instanceof Skip) answers.set(step.operation, { setup: error.reason.split('\n')[0]! });
        else if (error instanceof ExchangeFailed) answers.set(step.operation, { setup: `no answer: ${error.message}` });
        else throw error;
      }
    }
  } finally {
    leaks = await cleanup.runAll();
  }
  return { answers, leaks: leaks.map((l) => `${l.label}: ${l.error}`) };
}

export function compare(reference: SideRun, candidate: SideRun, steps: readonly DiffStep[] = DIFF_SEQUENCE): DiffResult {
  const all: Difference[] = [];
  const operations = steps.map((step) => {
    const r = reference.answers.get(step.operation);
    const c = candidate.answers.get(step.operation);
    const found = compareAnswers(step, r, c);
    all.push(...found);
    return { operation: step.operation, reference: describe(r), candidate: describe(c), differences: found.length };
  });
  const leaks = [
    ...reference.leaks.map((leak) => ({ side: 'reference' as const, leak })),
    ...candidate.leaks.map((leak) => ({ side: 'candidate' as const, leak })),
  ];
  return { operations, differences: all, leaks };
}

function compareAnswers(step: DiffStep, r: Answer | undefined, c: Answer | undefined): Difference[] {
  const op = step.operation;
  if (!r || !c || 'setup' in r || 'setup' in c) {
    const same = r && c && 'setup' in r && 'setup' in c;
    return same ? [] : [{ operation: op, path: '(setup)', reference: describe(r), candidate: describe(c) }];
  }
  const status = r.status === c.status ? [] : [{ operation: op, path: '(status)', reference: r.status, candidate: c.status }];
  return [...status, ...differences(op, normalize(r.body, step.normalize), normalize(c.body, step.normalize))];
}

function describe(answer: Answer | undefined): string {
  if (!answer) return 'not sent';
  return 'setup' in answer ? `not sent: ${answer.setup}` : String(answer.status);
}
