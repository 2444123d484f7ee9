// One fuzz run: for each selected operation, provision its state, then let fast-check generate valid and invalid
// requests from the request schema (seeded per operation and mode), judge every answer, and shrink each new kind
// of problem to a minimal request with fast-check's own shrinking. Everything created is removed at the end.
import { Provisioner } from '../fixtures/provision.ts';
import { Cleanup } from '../harness/conformance/cleanup.ts';
import type { Leak } from '../report/test-record.ts';
import { SequentialIdFactory, type IdFactory } from '../harness/conformance/ids.ts';
import { Skip } from '../harness/conformance/skip.ts';
import { ApiClient, ExchangeFailed } from '../harness/http/api-client.ts';
import type { Exchange } from '../harness/http/exchange.ts';
import type { TargetProfile } from '../harness/target-profile.ts';
import { pick } from './bind.ts';
import { fuzzOtherMethods, undefinedMethods } from './other-methods.ts';
import { sdkModelName } from './sdk-requests.ts';
import type { Mode } from './judge.ts';
import { ModeFuzzer, TargetUnreachable, type Finding, type ModeCounts } from './mode-fuzzer.ts';
import { FUZZ_TARGETS, type FuzzContext, type FuzzTarget } from './targets.ts';

export { SHRINK_REQUEST_LIMIT, TargetUnreachable, type Finding, type ModeCounts } from './mode-fuzzer.ts';

export { DEFAULT_BUDGET, DEFAULT_SEED } from './defaults.ts';
/** Subscriber ids a trigger may create: a bounded pool, so cleanup stays bounded too. */
const SUBSCRIBER_POOL = 64;

export interface FuzzOptions {
  seed: number;
  /** Generated requests per operation and mode; ignored with `timeS`. */
  budget: number;
  /** Wall-clock budget for the whole run, shared across operations and modes. */
  timeS?: number;
  /** When the `timeS` budget ends (epoch ms): the command's start-up counts against it. Default: now + timeS. */
  deadlineMs?: number;
  /** `--operation` ids; empty: all eight. */
  operations: string[];
  log(line: string): void;
  /** Sees every exchange (provisioning, fuzz requests, cleanup), already redacted. */
  onExchange?: (exchange: Exchange) => void;
}

export interface OperationCounts {
  operation: string;
  method: string;
  template: string;
  skipped?: string;
  /** Provisioning the operation's state failed on the target's answer: the operation was not fuzzed. */
  setupFailed?: string;
  valid?: ModeCounts;
  invalid?: ModeCounts;
  /** Requests generated from the official client's request model (CLIENT-04). */
  sdk?: ModeCounts;
  /** Every other method on the operation's path (ERR-04). */
  methods?: ModeCounts;
}

/** Requests sent for an operation, over every mode. */
export const requestsOf = (o: OperationCounts): number => (o.valid?.requests ?? 0) + (o.invalid?.requests ?? 0) + (o.sdk?.requests ?? 0) + (o.methods?.requests ?? 0);

export interface FuzzResult {
  seed: number;
  budget: number;
  timeS?: number;
  runPrefix: string;
  operations: OperationCounts[];
  findings: Finding[];
  leaks: Leak[];
  durationMs: number;
  /** Why the run ended before its budget: the target stopped answering, or an answer the fuzzer could not handle. */
  stopped?: { reason: string; operation: string; mode?: Mode };
}


export async function runFuzz(profile: TargetProfile, options: FuzzOptions): Promise<FuzzResult> {
  const started = Date.now();
  const api = new ApiClient(profile, options.onExchange);
  const selected = options.operations.length > 0 ? FUZZ_TARGETS.filter((t) => options.operations.includes(t.id)) : FUZZ_TARGETS;
  const deadline = options.timeS !== undefined ? (options.deadlineMs ?? started + options.timeS * 1000) : undefined;
  // set-up, other methods and cleanup of an operation are paid from the budget too: the largest seen is kept aside per operation left
  let overheadMs = 0;
  let operationsLeft = selected.length;
  const findings: Finding[] = [];
  const operations: OperationCounts[] = [];
  const leaks: Leak[] = [];
  let propertiesLeft = selected.reduce((n, t) => n + modesOf(t).length, 0);
  let stopped: FuzzResult['stopped'];

  for (const target of selected) {
    if (stopped) break;
    const cleanup = new Cleanup(api);
    // a counter, not a random salt: the same seed and prefix give the same requests
    const ids = new SequentialIdFactory(profile.runPrefix);
    const ctx = context(api, cleanup, ids, profile.runPrefix);
    const counts: OperationCounts = { operation: target.id, method: target.operation.method, template: target.operation.template };
    operations.push(counts);
    const operationStarted = Date.now();
    let fuzzingMs = 0;
    try {
      const state = await setUp(target, ctx);
      if (state instanceof SetupFailed) {
        counts.setupFailed = state.message;
        options.log(`  ${target.id}: not fuzzed, its set-up failed (${state.message})`);
        continue;
      }
      if (typeof state === 'string') {
        counts.skipped = state;
        options.log(`  ${target.id}: not fuzzed (${state})`);
        continue;
      }
      for (const mode of modesOf(target)) {
        const share = deadline !== undefined ? Math.max(0, deadline - Date.now() - overheadMs * operationsLeft) / propertiesLeft : undefined;
        propertiesLeft -= 1;
        const fuzzer = new ModeFuzzer(target, mode, state, ctx, profile, options, share);
        const modeStarted = Date.now();
        try {
          await fuzzer.run();
        } catch (error) {
          // what was found before the stop is kept: it goes into fuzz.json with the reason
          stopped = { reason: stopReason(error), operation: target.id, mode };
        }
        fuzzingMs += Date.now() - modeStarted;
        const result = fuzzer.progress();
        counts[mode] = result.counts;
        findings.push(...result.findings);
        options.log(`  ${target.id} ${mode}: ${result.counts.cases} generated, ${result.counts.requests} sent, ${result.findings.length} finding(s)${stopped ? `; stopped: ${stopped.reason}` : ''}`);
        if (stopped) break;
      }
      if (!stopped) {
        try {
          const other = await fuzzOtherMethods(target, state, ctx, profile);
          counts.methods = other.counts;
          findings.push(...other.findings);
          options.log(`  ${target.id} other methods: ${other.counts.requests} sent (${undefinedMethods(target).join(', ')}), ${other.findings.length} finding(s)`);
        } catch (error) {
          stopped = { reason: stopReason(error instanceof ExchangeFailed ? new TargetUnreachable(error.message) : error), operation: target.id, mode: 'methods' };
        }
      }
    } catch (error) {
      stopped = { reason: stopReason(error), operation: target.id };
    } finally {
      leaks.push(...(await cleanup.runAll().catch((error: unknown) => [{ label: `cleanup of ${target.id}`, error: stopReason(error) }])));
      overheadMs = Math.max(overheadMs, Date.now() - operationStarted - fuzzingMs);
      operationsLeft -= 1;
    }
  }
  return {
    seed: options.seed,
    budget: options.budget,
    ...(options.timeS !== undefined ? { timeS: options.timeS } : {}),
    runPrefix: profile.runPrefix,
    operations,
    findings,
    leaks,
    durationMs: Date.now() - started,
    ...(stopped ? { stopped } : {}),
  };
}

/** A set-up that failed on the target's answer (not a declared skip): the operation is reported as not fuzzed. */
class SetupFailed {
  constructor(readonly message: string) {}
}

function stopReason(error: unknown): string {
  if (error instanceof TargetUnreachable) return `the target stopped answering: ${error.message}`;
  return `the fuzzer could not go on: ${error instanceof Error ? error.message : String(error)}`;
}

function modesOf(target: FuzzTarget): Mode[] {
  const modes: Mode[] = target.body || target.query ? ['valid', 'invalid'] : ['valid'];
  if (target.body && sdkModelName(target.operation.template)) modes.push('sdk');
  return modes;
}

function context(api: ApiClient, cleanup: Cleanup, ids: IdFactory, runPrefix: string): FuzzContext {
  const pool = Array.from({ length: SUBSCRIBER_POOL }, (_, i) => `${runPrefix}-sub-${i}`);
  const registered = new Set<string>();
  return {
    api,
    cleanup,
    runPrefix,
    provision: new Provisioner(api, cleanup, ids),
    unique: (label) => ids.slug(label),
    subscriberFor: (generated) => {
      const id = pick(generated, pool);
      if (!registered.has(id)) {
        registered.add(id);
        cleanup.remove(`subscriber ${id}`, `/v2/subscribers/${encodeURIComponent(id)}`);
      }
      return id;
    },
  };
}

/** The operation's state, or why it could not be provisioned (the operation is then not fuzzed, never passed). */
async function setUp(target: FuzzTarget, ctx: FuzzContext): Promise<unknown> {
  try {
    return await target.setup(ctx);
  } catch (error) {
    if (error instanceof Skip) return error.reason.split('\n')[0]!;
    if (error instanceof ExchangeFailed && error.exchange.errorKind === 'refused') throw new TargetUnreachable(error.message);
    // a 501, a body that is not JSON, an answer without the id provisioning reads: the target's answer, not ours
    return new SetupFailed((error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300));
  }
}

