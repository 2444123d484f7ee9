// One fuzz run: for each selected operation, provision its state, then let fast-check generate valid and invalid
// requests from the request schema (seeded per operation and mode), judge every answer, and shrink each new kind
// of problem to a minimal request with fast-check's own shrinking. Everything created is removed at the end.
import fc, { type Arbitrary } from 'fast-check';
import type { ValidateFunction } from 'ajv';
import { Provisioner } from '../fixtures/provision.ts';
import { Cleanup, type Leak } from '../harness/conformance/cleanup.ts';
import { IdFactory, SequentialIdFactory } from '../harness/conformance/ids.ts';
import { Skip } from '../harness/conformance/skip.ts';
import { ApiClient, ExchangeFailed, type ApiResponse } from '../harness/http/api-client.ts';
import { toCurl, truncate, type Exchange } from '../harness/http/exchange.ts';
import type { TargetProfile } from '../harness/target-profile.ts';
import { createAjv } from '../schemas/ajv-factory.ts';
import { registry } from '../schemas/registry.ts';
import type { JsonSchema } from '../schemas/schema-files.ts';
import { pick, stableHash } from './bind.ts';
import { invalidArbitrary, type Broken } from './generate/invalid.ts';
import { schemaNode, type Node } from './generate/schema-nodes.ts';
import { validArbitrary } from './generate/valid.ts';
import { describeBroken, judge, signature, type Level, type Mode, type Problem } from './judge.ts';
import { FUZZ_TARGETS, type FuzzContext, type FuzzTarget, type SentRequest } from './targets.ts';

export const DEFAULT_SEED = 1;
/** Generated requests per operation and mode. */
export const DEFAULT_BUDGET = 100;
/** Requests one finding's shrinking may send before fast-check keeps the smallest request found so far. */
export const SHRINK_REQUEST_LIMIT = 500;
/** Distinct findings per operation and mode before the fuzzer moves on. */
const MAX_FINDINGS_PER_MODE = 5;
/** Generated bodies above this size are discarded: they would test the body limit (ERR-05), not the schema. */
const MAX_BODY_CHARS = 200_000;
/** Subscriber ids a trigger may create: a bounded pool, so cleanup stays bounded too. */
const SUBSCRIBER_POOL = 64;

export interface FuzzOptions {
  seed: number;
  /** Generated requests per operation and mode; ignored with `timeS`. */
  budget: number;
  /** Wall-clock budget for the whole run, shared across operations and modes. */
  timeS?: number;
  /** `--operation` ids; empty: all eight. */
  operations: string[];
  log(line: string): void;
  /** Sees every exchange (provisioning, fuzz requests, cleanup), already redacted. */
  onExchange?: (exchange: Exchange) => void;
}

export interface Finding {
  operation: string;
  mode: Mode;
  rule: Problem['rule'];
  level: Level;
  message: string;
  status: number;
  broken?: { pointer: string; violation: string };
  /** The minimal request fast-check shrank the first failing one to. */
  request: SentRequest;
  response: { status: number; body: string };
  reproducer: string;
  /** Replays the case with fast-check: the property's seed and the counterexample path. */
  replay: { seed: number; path: string };
  shrinks: number;
  /** Generated requests of this operation and mode before the first that showed the problem. */
  foundAfter: number;
}

export interface ModeCounts {
  cases: number;
  requests: number;
  /** Generated values the registry disagreed with (valid ones that were not, invalid ones that were not). */
  discarded: number;
  shrinkRequests: number;
  statuses: Record<string, number>;
  findings: number;
}

export interface OperationCounts {
  operation: string;
  method: string;
  template: string;
  skipped?: string;
  valid?: ModeCounts;
  invalid?: ModeCounts;
}

export interface FuzzResult {
  seed: number;
  budget: number;
  timeS?: number;
  runPrefix: string;
  operations: OperationCounts[];
  findings: Finding[];
  leaks: Leak[];
  durationMs: number;
}

export class TargetUnreachable extends Error {}

export async function runFuzz(profile: TargetProfile, options: FuzzOptions): Promise<FuzzResult> {
  const started = Date.now();
  const api = new ApiClient(profile, options.onExchange);
  const selected = options.operations.length > 0 ? FUZZ_TARGETS.filter((t) => options.operations.includes(t.id)) : FUZZ_TARGETS;
  const deadline = options.timeS !== undefined ? started + options.timeS * 1000 : undefined;
  const findings: Finding[] = [];
  const operations: OperationCounts[] = [];
  const leaks: Leak[] = [];
  let propertiesLeft = selected.reduce((n, t) => n + modesOf(t).length, 0);

  for (const target of selected) {
    const cleanup = new Cleanup(api);
    // a counter, not a random salt: the same seed and prefix give the same requests
    const ids = new SequentialIdFactory(profile.runPrefix);
    const ctx = context(api, cleanup, ids, profile.runPrefix);
    const counts: OperationCounts = { operation: target.id, method: target.operation.method, template: target.operation.template };
    operations.push(counts);
    try {
      const state = await setUp(target, ctx);
      if (typeof state === 'string') {
        counts.skipped = state;
        options.log(`  ${target.id}: not fuzzed (${state})`);
        continue;
      }
      for (const mode of modesOf(target)) {
        const share = deadline !== undefined ? Math.max(0, deadline - Date.now()) / propertiesLeft : undefined;
        propertiesLeft -= 1;
        const fuzzer = new ModeFuzzer(target, mode, state, ctx, profile, options, share);
        const result = await fuzzer.run();
        counts[mode] = result.counts;
        findings.push(...result.findings);
        options.log(`  ${target.id} ${mode}: ${result.counts.cases} generated, ${result.counts.requests} sent, ${result.findings.length} finding(s)`);
      }
    } finally {
      leaks.push(...(await cleanup.runAll()));
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
  };
}

function modesOf(target: FuzzTarget): Mode[] {
  return target.body || target.query ? ['valid', 'invalid'] : ['valid'];
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
    throw error;
  }
}

interface Case {
  sent: SentRequest;
  broken?: Broken;
  res?: ApiResponse;
  failure?: ExchangeFailed;
  problem: Problem;
  status: number;
}

/** Fuzzes one operation in one mode: repeated fast-check runs, each ending at a new kind of problem (shrunk). */
class ModeFuzzer {
  private readonly counts: ModeCounts = { cases: 0, requests: 0, discarded: 0, shrinkRequests: 0, statuses: {}, findings: 0 };
  private readonly findings: Finding[] = [];
  private readonly seen = new Set<string>();
  private readonly arbitrary: Arbitrary<unknown>;
  private readonly conforms: (sent: SentRequest) => boolean;
  private readonly seed: number;

  constructor(
    private readonly target: FuzzTarget,
    private readonly mode: Mode,
    private readonly state: unknown,
    private readonly ctx: FuzzContext,
    private readonly profile: TargetProfile,
    private readonly options: FuzzOptions,
    private readonly timeShareMs: number | undefined,
  ) {
    const input = inputOf(target);
    this.arbitrary = !input ? fc.constant(undefined) : mode === 'valid' ? validArbitrary(input.node) : invalidArbitrary(input.node, { textOnly: input.kind === 'query' })!;
    this.conforms = conformance(target);
    // per operation and mode, so `--operation X` sends exactly what the full run sends for X
    this.seed = (options.seed ^ stableHash(`${target.id}/${mode}`)) >>> 0;
  }

  async run(): Promise<{ counts: ModeCounts; findings: Finding[] }> {
    const started = Date.now();
    // an operation without input has nothing to vary: one request says it all
    const budget = inputOf(this.target) ? (this.timeShareMs !== undefined ? Number.MAX_SAFE_INTEGER : this.options.budget) : 1;
    let start = 0;
    while (this.counts.cases < budget && this.findings.length < MAX_FINDINGS_PER_MODE) {
      const left = this.timeShareMs !== undefined ? this.timeShareMs - (Date.now() - started) : undefined;
      if (left !== undefined && left <= 0) break;
      const attempt = this.attempt();
      const details = await fc.check(attempt.property, {
        seed: this.seed,
        numRuns: budget - this.counts.cases,
        ...(start > 0 ? { path: String(start) } : {}),
        // valid and invalid generators pass the registry's check almost always; a run of disagreements is a generator bug
        maxSkipsPerRun: 10,
        ...(left !== undefined ? { plugins: [fc.interruptAfterTimeLimit(left)] } : {}),
      });
      if (details.failed && details.errorInstance instanceof TargetUnreachable) throw details.errorInstance;
      if (!details.failed || !attempt.last() || !details.counterexamplePath) {
        if (details.failed && details.errorInstance) throw details.errorInstance;
        break;
      }
      this.record(attempt.last()!, details.seed, details.counterexamplePath, details.numShrinks, attempt.foundAfter());
      // the next run starts after the failing case: passing cases are not sent again
      start = Number(details.counterexamplePath.split(':')[0]) + 1;
    }
    return { counts: this.counts, findings: this.findings };
  }

  /** A property that fails on the first problem not yet reported, then only on that same kind while shrinking. */
  private attempt() {
    let wanted: string | undefined;
    let last: Case | undefined;
    let foundAfter = 0;
    let shrinkRequests = 0;
    const property = fc.asyncProperty(this.arbitrary, async (generated) => {
      const shrinking = wanted !== undefined;
      if (shrinking && shrinkRequests >= SHRINK_REQUEST_LIMIT) return true;
      const { sent, broken } = this.build(generated);
      const agrees = this.mode === 'valid' ? this.conforms(sent) : !this.conforms(sent);
      if (!agrees || JSON.stringify(sent.body ?? sent.query ?? null).length > MAX_BODY_CHARS) {
        if (!shrinking) this.counts.discarded += 1;
        fc.pre(false);
      }
      if (shrinking) {
        shrinkRequests += 1;
        this.counts.shrinkRequests += 1;
      } else this.counts.cases += 1;
      const cases = await this.send(sent, broken);
      const fresh = cases.filter((c) => !this.seen.has(signature(c.problem, c.status)));
      const match = wanted === undefined ? fresh[0] : fresh.find((c) => signature(c.problem, c.status) === wanted);
      if (!match) return true;
      if (wanted === undefined) {
        wanted = signature(match.problem, match.status);
        foundAfter = this.counts.cases;
      }
      last = match;
      return false;
    });
    return { property, last: () => last, foundAfter: () => foundAfter };
  }

  private build(generated: unknown): { sent: SentRequest; broken?: Broken } {
    const { target, state, ctx } = this;
    const broken = this.mode === 'invalid' ? (generated as Broken) : undefined;
    const raw = broken ? broken.value : generated;
    const base = { method: target.operation.method, path: target.path(state) };
    if (target.query) return { sent: { ...base, ...(raw && Object.keys(raw as object).length > 0 ? { query: raw as Record<string, string> } : {}) }, ...(broken ? { broken } : {}) };
    if (!target.body) return { sent: base };
    const body = target.bind ? target.bind(raw, state, ctx, broken?.pointer) : raw;
    return { sent: { ...base, body }, ...(broken ? { broken } : {}) };
  }

  /** Sends one request and judges the answer; a connection that breaks on a request is a problem too. */
  private async send(sent: SentRequest, broken: Broken | undefined): Promise<Case[]> {
    const { target, mode, ctx } = this;
    await target.beforeEach?.(ctx, this.state);
    this.counts.requests += 1;
    try {
      const res = await ctx.api.request(sent.method, sent.path, {
        ...(sent.body !== undefined ? { body: sent.body } : {}),
        ...(sent.query ? { query: sent.query } : {}),
      });
      ctx.api.exchanges.length = 0;
      this.counts.statuses[res.status] = (this.counts.statuses[res.status] ?? 0) + 1;
      if (res.status >= 200 && res.status < 300) target.created?.(ctx, res, sent);
      return judge({ target, mode, sent, ...(broken ? { broken } : {}), res, features: this.profile.features }).map((problem) => ({ sent, ...(broken ? { broken } : {}), res, problem, status: res.status }));
    } catch (error) {
      if (!(error instanceof ExchangeFailed)) throw error;
      if (error.exchange.errorKind === 'refused') throw new TargetUnreachable(error.message);
      ctx.api.exchanges.length = 0;
      this.counts.statuses.none = (this.counts.statuses.none ?? 0) + 1;
      const what = mode === 'valid' ? 'a valid request' : `an invalid request (${describeBroken(broken)})`;
      const problem: Problem = { rule: mode === 'valid' ? target.rule : 'FUZZ-5XX', level: 'error', message: `no answer to ${what}: ${error.exchange.error}` };
      return [{ sent, ...(broken ? { broken } : {}), failure: error, problem, status: 0 }];
    }
  }

  private record(c: Case, seed: number, path: string, shrinks: number, foundAfter: number): void {
    this.seen.add(signature(c.problem, c.status));
    this.counts.findings += 1;
    const exchange = c.res?.exchange ?? c.failure!.exchange;
    this.findings.push({
      operation: this.target.id,
      mode: this.mode,
      rule: c.problem.rule,
      level: c.problem.level,
      message: c.problem.message,
      status: c.status,
      ...(c.broken ? { broken: { pointer: c.broken.pointer, violation: c.broken.violation } } : {}),
      request: c.sent,
      response: { status: c.status, body: truncate(exchange.responseBody ?? exchange.error ?? '', 600) },
      reproducer: toCurl(exchange),
      replay: { seed, path },
      shrinks,
      foundAfter,
    });
  }
}

function inputOf(target: FuzzTarget): { node: Node; kind: 'body' | 'query' } | undefined {
  if (target.body) return { node: schemaNode(target.body), kind: 'body' };
  if (target.query) return { node: { schema: target.query, root: target.query }, kind: 'query' };
  return undefined;
}

/** Whether a request is what its schema allows, by the registry (bodies) or the same Ajv setup (queries). */
function conformance(target: FuzzTarget): (sent: SentRequest) => boolean {
  if (target.body) {
    const name = target.body;
    return (sent) => registry.validate(name, sent.body).valid;
  }
  if (target.query) {
    const validate: ValidateFunction = queryValidator(target.query);
    return (sent) => validate(sent.query ?? {}) as boolean;
  }
  return () => true;
}

let ajv: ReturnType<typeof createAjv> | undefined;
function queryValidator(schema: JsonSchema): ValidateFunction {
  ajv ??= createAjv();
  return ajv.compile(schema);
}
