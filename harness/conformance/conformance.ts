// `conformance(rule, title, fn)`: a vitest test tagged with rule IDs, run only where the target can support it,
// with passive checks over its traffic and failure messages that carry the rule and a reproducer.
import { inject } from 'vitest';
import { AREAS, requirement, type RuleId } from '../../requirements/index.ts';
import { PASSIVE_CHECKS } from '../checks/passive-checks.ts';
import { SCHEMA_CHECKED_RULES, schemaCheck } from '../checks/schema-checks.ts';
import { describeExchange, type Exchange } from '../http/exchange.ts';
import { ExchangeFailed } from '../http/api-client.ts';
import { attachExchanges } from '../report/allure-attachments.ts';
import type { TargetProfile } from '../target-profile.ts';
import { READS_EVERY_BUCKET, type BucketUses } from './buckets.ts';
import { conformanceTest, type ConformanceFixtures } from './fixtures.ts';
import type { ConformanceMeta, Observation, SkipOutcome } from './meta.ts';
import { Skip } from './skip.ts';
import '../../schemas/matchers.ts';

/** What a target or configuration must offer for the test to say anything. */
export type Need = 'secondaryKey' | 'restrictedKey' | 'regionalBaseUrl';

export interface ConformanceOptions {
  needs?: readonly Need[];
  /** A MUST rule whose RULES.md text makes this particular case SHOULD-level (e.g. AUTH-03's bare key). */
  level?: 'SHOULD';
  timeoutMs?: number;
  /** The target's buckets the test uses, and how (buckets.ts); by default it reads them all. */
  buckets?: BucketUses;
}

export interface ConformanceContext extends Omit<ConformanceFixtures, 'lease'> {
  /** Ends the test as not verified: the target or configuration lacks what it needs. Never a pass. */
  notVerified(reason: string): never;
  /** Records an observation that is reported but not judged (INFO, e.g. the exact mask string). */
  note(text: string): void;
}

const NEED_REASONS: Record<Need, (t: TargetProfile) => string | undefined> = {
  secondaryKey: (t) => (t.keys.secondary ? undefined : 'no secondary API key configured (--secondary-api-key)'),
  restrictedKey: (t) => (t.keys.restricted ? undefined : 'no restricted API key configured (--restricted-api-key)'),
  regionalBaseUrl: (t) => (t.regionalBaseUrl ? undefined : 'no regional base address configured (target.regionalBaseUrl)'),
};

export function conformance(
  rules: RuleId | readonly RuleId[],
  title: string,
  fn: (ctx: ConformanceContext) => Promise<void>,
  options: ConformanceOptions = {},
): void {
  const ids: RuleId[] = typeof rules === 'string' ? [rules] : [...rules];
  const profile = inject('target');
  // Tests wait on the network, not the CPU, so they run concurrently; rate-limit tests never do (shared buckets).
  const register = ids.every((id) => requirement(id).area === 'RL') ? conformanceTest : conformanceTest.concurrent;
  const timeoutMs = options.timeoutMs ?? profile.timeouts.testMs;
  // Under the bucket plan a test may wait for earlier ones: its own time limit starts once it holds its buckets.
  const testOptions = { timeout: profile.timeouts.runMs, meta: { buckets: options.buckets ?? READS_EVERY_BUCKET } };
  // Vitest reads the fixtures a test uses from its destructuring pattern, so every fixture is named here.
  register(`${title} [${ids.join(', ')}]`, testOptions, async ({ task, skip: vitestSkip, api, target, ids: idFactory, cleanup, provision, lease }) => {
    const ctx = { task, skip: vitestSkip, api, target, ids: idFactory, cleanup, provision };
    const meta: ConformanceMeta = { rules: ids, ...(options.level ? { level: options.level } : {}) };
    ctx.task.meta.conformance = meta;
    const skip = (outcome: SkipOutcome, reason: string): never => {
      meta.outcome = outcome;
      meta.reason = reason;
      return ctx.skip(reason);
    };

    if (target.rules.length > 0 && !ids.some((id) => target.rules.includes(id))) skip('deselected', 'not among --rules');
    const skipped = [task.name, ...ids].find((key) => target.skips[key] !== undefined);
    if (skipped) skip('not-verified', `skipped by the expectations file: ${target.skips[skipped]}`);
    const off = disabledFeature(ids, target);
    if (off) skip('not-applicable', off);
    for (const need of options.needs ?? []) {
      const missing = NEED_REASONS[need](target);
      if (missing) skip('not-verified', missing);
    }

    const notVerified = (reason: string): never => {
      throw new Skip('not-verified', reason);
    };
    try {
      const note = (text: string) => void (meta.notes ??= []).push(api.redactor.text(text));
      await lease.acquire();
      await withinMs(fn({ api, target, ids: idFactory, cleanup, provision, notVerified, note }), timeoutMs);
    } catch (error) {
      if (error instanceof Skip) skip(error.outcome, error.reason);
      meta.evidence = ctx.api.exchanges.slice(-3).map(describeExchange);
      throw enrich(error, ids, ctx.api.exchanges);
    } finally {
      meta.observations = observe(ctx.api.exchanges, target);
      await attachExchanges(ctx.api.exchanges);
    }
  });
}

/** The test's own time limit, counted from the plan's grant (timeouts.testMs). */
async function withinMs(body: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Test timed out in ${ms}ms (timeouts.testMs)`)), ms);
  });
  try {
    await Promise.race([body, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** IDEM and RL rules are not applicable when the target declares the feature off. */
function disabledFeature(ids: RuleId[], profile: TargetProfile): string | undefined {
  const areas = new Set(ids.map((id) => requirement(id).area));
  if (areas.size === 1 && areas.has('IDEM') && !profile.features.idempotency) return 'the target declares idempotency off (features.idempotency)';
  if (areas.size === 1 && areas.has('RL') && !profile.features.rateLimiting) return 'the target declares rate limiting off (features.rateLimiting)';
  return undefined;
}

const ALL_CHECKS = [...PASSIVE_CHECKS, ...SCHEMA_CHECKED_RULES.map(schemaCheck)];

function observe(exchanges: Exchange[], profile: TargetProfile): Observation[] {
  const observations: Observation[] = [];
  for (const check of ALL_CHECKS) {
    const relevant = exchanges.filter((e) => e.status !== undefined && check.applies(e, profile.features));
    if (relevant.length === 0) continue;
    const violations: string[] = [];
    for (const exchange of relevant) {
      const problem = check.check(exchange);
      if (problem && violations.length < 3) violations.push(`${problem}\n  ${describeExchange(exchange)}`);
    }
    observations.push({ rule: check.rule, checked: relevant.length, violations });
  }
  return observations;
}

/** Prefixes the failure with what the spec requires and appends the last exchange with its reproducer. */
function enrich(error: unknown, ids: RuleId[], exchanges: Exchange[]): unknown {
  if (!(error instanceof Error)) return error;
  const rules = ids.map((id) => `${id} (${requirement(id).level}, ${AREAS[requirement(id).area]}): ${requirement(id).text}`).join('\n');
  const last = error instanceof ExchangeFailed ? undefined : exchanges.at(-1);
  error.message = `${error.message}\n\nRule: ${rules}${last ? `\n\nLast exchange: ${describeExchange(last)}` : ''}`;
  return error;
}
