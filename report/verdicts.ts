// Turns test records into one verdict per rule of the catalog. A rule no test exercised is never `pass`.
import { REQUIREMENTS, type Requirement } from '../requirements/index.ts';
import { OPTIONAL_ASPECTS } from '../requirements/optional-aspects.ts';
import type { FeatureSettings } from '../config/settings.ts';
import type { TestRecord, TransportRetries } from './test-record.ts';
import { declaredOff } from './declared-off.ts';

/** The name every rule's check over all traffic starts with (`every exchange of the run (N checked)`). */
export const PASSIVE_TEST = 'every exchange of the run';

export type Verdict = 'pass' | 'fail' | 'warn' | 'not-verified' | 'not-applicable';
export type TestStatus = 'passed' | 'failed' | 'not-verified' | 'not-applicable';

export interface RuleTest {
  name: string;
  /** The suite file of the test (absent for the check over all traffic and for the load harness's tests). */
  file?: string;
  status: TestStatus;
  /** Present when the test checks a SHOULD-level case of a MUST rule. */
  level?: 'SHOULD';
  durationMs: number;
  message?: string;
  evidence?: string[];
  /** The test met transport faults and ran again from the start (the verdict is its last try's). */
  transport?: TransportRetries;
  /** The test observes the rule's core behaviour (RL-05: the limit over the limit): see decisiveGap. */
  decisive?: true;
  /** Why the aspect this test checks is optional: its not-verified does not keep the rule from `pass` (openGap). */
  optional?: string;
}

/**
 * A rule with decisive tests passes only when one of them passed: RL-05's checks under the limit cannot make it
 * `pass` when every check over the limit was `not-verified`. Returns the decisive test that says why, if so.
 */
export function decisiveGap(tests: readonly RuleTest[]): RuleTest | undefined {
  const decisive = tests.filter((t) => t.decisive);
  return decisive.length > 0 && !decisive.some((t) => t.status === 'passed') ? decisive[0] : undefined;
}

export interface RuleVerdict {
  id: string;
  level: Requirement['level'];
  area: Requirement['area'];
  section: string;
  text: string;
  verdict: Verdict;
  reason?: string;
  tests: RuleTest[];
}

/**
 * `skips`: rule IDs an expectations file says not to run; their passive evidence does not count either.
 * `selected`: the --rules subset (empty: all); every other rule is not-verified, even where the traffic of the run
 * said something about it.
 */
export function computeVerdicts(records: TestRecord[], features: FeatureSettings, skips: Record<string, string> = {}, selected: readonly string[] = []): RuleVerdict[] {
  return REQUIREMENTS.map((rule) => {
    const base = { id: rule.id, level: rule.level, area: rule.area, section: rule.section, text: rule.text };
    if (selected.length > 0 && !selected.includes(rule.id)) return { ...base, verdict: 'not-verified', reason: 'not among --rules', tests: [] };
    const skipped = skips[rule.id] !== undefined;
    const tests = [...directTests(rule.id, records), ...(skipped ? [] : passiveTests(rule.id, records))];
    const { verdict, reason } = decide(rule, tests, features, untestedReason(rule, records));
    return { ...base, verdict, ...(reason ? { reason } : {}), tests };
  });
}

function directTests(id: string, records: TestRecord[]): RuleTest[] {
  return records
    .filter((r) => r.rules.includes(id) && r.outcome !== 'deselected')
    .map((r) => ({
      name: r.name,
      ...(optionalAspect(r.name) ? { optional: optionalAspect(r.name) } : {}),
      file: r.file,
      status: r.state === 'skipped' ? (r.outcome === 'not-applicable' ? 'not-applicable' : 'not-verified') : r.state,
      ...(r.level ? { level: r.level } : {}),
      durationMs: r.durationMs,
      ...(messageOf(r) ? { message: messageOf(r) } : {}),
      ...(r.state === 'failed' && r.evidence.length > 0 ? { evidence: r.evidence } : {}),
      ...(r.transport ? { transport: r.transport } : {}),
    }));
}

/** Passive checks over all traffic become one entry: how many exchanges were checked, and what broke. */
function passiveTests(id: string, records: TestRecord[]): RuleTest[] {
  let checked = 0;
  const violations: string[] = [];
  for (const record of records) {
    for (const o of record.observations) {
      if (o.rule !== id) continue;
      checked += o.checked;
      for (const v of o.violations) if (violations.length < 5) violations.push(`in "${record.name}": ${v}`);
    }
  }
  if (checked === 0) return [];
  return [{
    name: `${PASSIVE_TEST} (${checked} checked)`,
    status: violations.length > 0 ? 'failed' : 'passed',
    durationMs: 0,
    ...(violations.length > 0 ? { message: violations.join('\n\n') } : {}),
  }];
}

function decide(rule: Requirement, tests: RuleTest[], features: FeatureSettings, untested: string): { verdict: Verdict; reason?: string } {
  const off = declaredOff(rule, features);
  if (off) return { verdict: 'not-applicable', reason: off };
  const failed = tests.filter((t) => t.status === 'failed');
  if (failed.length > 0) {
    const mustBroken = rule.level === 'MUST' && failed.some((t) => t.level !== 'SHOULD');
    return mustBroken ? { verdict: 'fail' } : { verdict: 'warn', ...(rule.level === 'MUST' ? { reason: 'only SHOULD-level cases failed' } : {}) };
  }
  // A MUST rule passes only on evidence of its MUST case: a SHOULD-level case alone does not make it pass.
  if (tests.some((t) => t.status === 'passed' && (rule.level !== 'MUST' || t.level !== 'SHOULD'))) {
    const gap = openGap(rule, tests);
    return gap ? { verdict: 'not-verified', reason: `not every aspect was verified: "${gap.name}": ${gap.message ?? 'not verified'}` } : { verdict: 'pass' };
  }
  if (tests.some((t) => t.status === 'passed')) return { verdict: 'not-verified', reason: 'only SHOULD-level cases of this MUST rule ran' };
  if (tests.some((t) => t.status === 'not-applicable')) return { verdict: 'not-applicable', reason: firstMessage(tests, 'not-applicable') };
  return { verdict: 'not-verified', reason: firstMessage(tests, 'not-verified') ?? untested };
}

/**
 * A test of the rule that ended not verified on an aspect the rule requires: one passing test does not stand for it.
 * Not counted: an aspect declared optional (requirements/optional-aspects.ts) and a SHOULD-level case of a MUST rule
 * (its failure would only warn, so its absence cannot hold the MUST verdict back).
 */
export function openGap(rule: Pick<Requirement, 'level'>, tests: readonly RuleTest[]): RuleTest | undefined {
  return tests.find((t) => t.status === 'not-verified' && !t.optional && !(rule.level === 'MUST' && t.level === 'SHOULD'));
}

/** The declared reason a test's aspect is optional, by the test's title (its name without the trailing rule IDs). */
function optionalAspect(name: string): string | undefined {
  return OPTIONAL_ASPECTS[name.replace(/ \[[A-Z0-9, -]+\]$/, '')];
}

/** Why no test of a rule ran: the summary lists this reason beside every MUST rule left not verified. */
function untestedReason(rule: Requirement, records: TestRecord[]): string {
  if (rule.verifiedBy === 'load') return 'verified by `conformance load`, which has not merged its verdicts into this report';
  if (records.some((r) => r.rules.includes(rule.id) && r.outcome === 'deselected')) return 'not among --rules';
  return 'no test exercised this rule';
}

function firstMessage(tests: RuleTest[], status: TestStatus): string | undefined {
  return tests.find((t) => t.status === status && t.message)?.message;
}

/** A failure's message, a skip's reason, or what a passing test observed (notes). */
function messageOf(r: TestRecord): string | undefined {
  return r.message ?? r.reason ?? (r.notes.length > 0 ? `observed: ${r.notes.join('; ')}` : undefined);
}
