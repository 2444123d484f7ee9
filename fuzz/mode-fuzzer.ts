// One operation in one mode (valid or invalid requests): repeated fast-check runs from one seed, each ending at a
// new kind of problem, which fast-check's own shrinking reduces to a minimal request (one request per candidate).
import fc, { type Arbitrary } from 'fast-check';
import type { ValidateFunction } from 'ajv';
import { ExchangeFailed, type ApiResponse } from '../harness/http/api-client.ts';
import { toCurl, truncate } from '../harness/http/exchange.ts';
import type { TargetProfile } from '../harness/target-profile.ts';
import { createAjv } from '../schemas/ajv-factory.ts';
import { registry } from '../schemas/registry.ts';
import type { JsonSchema } from '../schemas/schema-files.ts';
import { stableHash } from './bind.ts';
import { invalidArbitrary, type Broken } from './generate/invalid.ts';
import { schemaNode, type Node } from './generate/schema-nodes.ts';
import { validArbitrary } from './generate/valid.ts';
import { describeRequest, judge, signature, type Level, type Mode, type Problem } from './judge.ts';
import { sdkBodyArbitrary } from './sdk-requests.ts';
import type { FuzzContext, FuzzTarget, SentRequest } from './targets.ts';

/** Requests one finding's shrinking may send before fast-check keeps the smallest request found so far. */
export const SHRINK_REQUEST_LIMIT = 500;
/** Distinct findings per operation and mode before the fuzzer moves on. */
const MAX_FINDINGS_PER_MODE = 5;
/** Generated bodies above this size are discarded: they would test the body limit (ERR-05), not the schema. */
const MAX_BODY_CHARS = 200_000;

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

/** The target stopped answering at all (connection refused): the run ends with exit 2. */
export class TargetUnreachable extends Error {}

interface Case {
  sent: SentRequest;
  broken?: Broken;
  res?: ApiResponse;
  failure?: ExchangeFailed;
  problem: Problem;
  status: number;
}

export class ModeFuzzer {
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
    private readonly options: { seed: number; budget: number },
    private readonly timeShareMs: number | undefined,
  ) {
    const input = inputOf(target);
    this.arbitrary = !input ? fc.constant(undefined) : mode === 'sdk' ? sdkBodyArbitrary(target.operation.template)! : mode === 'valid' ? validArbitrary(input.node) : invalidArbitrary(input.node, { textOnly: input.kind === 'query' })!;
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
    return this.progress();
  }

  /** What was counted and found so far: after `run`, or after it stopped on an error. */
  progress(): { counts: ModeCounts; findings: Finding[] } {
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
      // an sdk request is what the client's model allows, whatever the project's schema says: that is the point
      const agrees = this.mode === 'sdk' || (this.mode === 'valid' ? this.conforms(sent) : !this.conforms(sent));
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
      const what = describeRequest(mode, broken);
      const problem: Problem = { rule: mode === 'valid' || mode === 'sdk' ? target.rule : 'FUZZ-5XX', level: 'error', message: `no answer to ${what}: ${error.exchange.error}` };
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
