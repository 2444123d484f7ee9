// Failures and warnings grouped by signature: one bug that breaks eight rules is one root cause, not 63 failures.
import { signaturesOf } from './failure-signature.ts';
import { PASSIVE_TEST, type RuleTest, type RuleVerdict } from './verdicts.ts';

export interface RootCause {
  /** What failed, normalized: the check, the field or header, the status — e.g. `error-body:path:missing`. */
  signature: string;
  /** One line a person reads: "error bodies lack `path`". */
  summary: string;
  /** The rules it breaks (verdict fail or warn), in catalog order. */
  rules: string[];
  /** How many failing tests show it (the check of a rule over all traffic counts once). */
  tests: number;
  /** The first failure it explains: the rule, the test, what came back and, where recorded, the exchange with its reproducer. */
  example: { rule: string; test: string; message: string; evidence?: string };
}

const STATUS = 'status:';
const EXCERPT_CHARS = 1500;

interface Group {
  cause: RootCause;
  observed: Set<string>;
  tests: Set<string>;
  /** Rank of the example: a test with a recorded exchange of a failed MUST rule is the best. */
  exampleRank: number;
}

export function rootCausesOf(requirements: readonly RuleVerdict[]): RootCause[] {
  const groups = new Map<string, Group>();
  for (const rule of requirements) {
    if (rule.verdict !== 'fail' && rule.verdict !== 'warn') continue;
    for (const test of rule.tests) {
      if (test.status !== 'failed') continue;
      const passive = test.name.startsWith(PASSIVE_TEST);
      for (const signature of signaturesOf(test.message ?? 'failed', passive)) {
        let group = groups.get(signature.key);
        if (!group) {
          group = { cause: { signature: signature.key, summary: signature.summary, rules: [], tests: 0, example: exampleOf(rule, test, signature.excerpt) }, observed: new Set(), tests: new Set(), exampleRank: rank(rule, test) };
          groups.set(signature.key, group);
        } else if (rank(rule, test) < group.exampleRank) {
          group.cause.example = exampleOf(rule, test, signature.excerpt);
          group.exampleRank = rank(rule, test);
        }
        if (!group.cause.rules.includes(rule.id)) group.cause.rules.push(rule.id);
        if (signature.observed) group.observed.add(signature.observed);
        group.tests.add(passive ? `${rule.id} ${test.name}` : test.name);
      }
    }
  }
  const verdictOf = new Map(requirements.map((r) => [r.id, r.verdict]));
  const failing = (cause: RootCause) => cause.rules.filter((id) => verdictOf.get(id) === 'fail').length;
  const order = new Map(requirements.map((r, i) => [r.id, i]));
  return mergeByAnsweredStatus([...groups.values()])
    .map(({ cause, observed, tests }) => ({
      ...cause,
      rules: cause.rules.sort((a, b) => order.get(a)! - order.get(b)!),
      summary: observed.size > 0 ? `${cause.summary} (got ${[...observed].sort().join(', ')})` : cause.summary,
      tests: tests.size,
    }))
    .sort((a, b) => failing(b) - failing(a) || b.rules.length - a.rules.length || b.tests - a.tests);
}

/**
 * Status failures are keyed by the status the rule requires (a key accepted without auth: 401 required, 200, 201 or
 * 404 answered). Where several required statuses were each met by one and the same answer (404 for everything under a
 * wrong prefix, 422 for every valid trigger), that answer is the cause: those groups become one.
 */
function mergeByAnsweredStatus(groups: Group[]): Group[] {
  const byAnswer = new Map<string, Group[]>();
  for (const g of groups) {
    if (!g.cause.signature.startsWith(STATUS) || g.observed.size !== 1) continue;
    const answer = [...g.observed][0]!;
    byAnswer.set(answer, [...(byAnswer.get(answer) ?? []), g]);
  }
  const merged = new Set<Group>();
  const out: Group[] = [];
  for (const [answer, same] of byAnswer) {
    if (same.length < 2) continue;
    same.forEach((g) => merged.add(g));
    const best = same.reduce((a, b) => (b.exampleRank < a.exampleRank ? b : a));
    const required = same.map((g) => g.cause.signature.slice(STATUS.length)).sort();
    out.push({
      cause: {
        signature: `${STATUS}answered ${answer}`,
        summary: `HTTP ${answer} where another status is required (${required.slice(0, 4).join('; ')}${required.length > 4 ? '; …' : ''})`,
        rules: [...new Set(same.flatMap((g) => g.cause.rules))],
        tests: 0,
        example: best.cause.example,
      },
      observed: new Set(),
      tests: new Set(same.flatMap((g) => [...g.tests])),
      exampleRank: best.exampleRank,
    });
  }
  return [...groups.filter((g) => !merged.has(g)), ...out];
}

function rank(rule: RuleVerdict, test: RuleTest): number {
  return (rule.verdict === 'fail' ? 0 : 2) + (test.evidence && test.evidence.length > 0 ? 0 : 1);
}

function exampleOf(rule: RuleVerdict, test: RuleTest, excerpt: string): RootCause['example'] {
  const message = excerpt.length > EXCERPT_CHARS ? `${excerpt.slice(0, EXCERPT_CHARS - 1)}…` : excerpt;
  const evidence = test.evidence?.at(-1);
  return { rule: rule.id, test: test.name, message, ...(evidence ? { evidence } : {}) };
}

/** "1 root cause breaks 10 MUST rules (6 more rules warn): error bodies lack `path`" — how a report opens. */
export function rootCauseHeadline(causes: readonly RootCause[], requirements: readonly RuleVerdict[]): string | undefined {
  if (causes.length === 0) return undefined;
  return `${rootCauseCount(causes, requirements)}${causes.length > 1 ? '' : `: ${causes[0]!.summary}`}`;
}

/** "3 root causes break 10 MUST rules (6 more rules warn)" */
export function rootCauseCount(causes: readonly RootCause[], requirements: readonly RuleVerdict[]): string {
  const { fail, warn } = brokenRules(causes.flatMap((c) => c.rules), requirements);
  const many = causes.length > 1;
  const breaks = fail > 0 ? `${many ? 'break' : 'breaks'} ${plural(fail, 'MUST rule')}${warn > 0 ? ` (${plural(warn, 'more rule')} warn)` : ''}` : `${many ? 'make' : 'makes'} ${plural(warn, 'rule')} warn`;
  return `${plural(causes.length, 'root cause')} ${breaks}`;
}

/** How many of these rules fail and how many warn. */
export function brokenRules(ids: readonly string[], requirements: readonly RuleVerdict[]): { fail: number; warn: number } {
  const unique = new Set(ids);
  const verdicts = requirements.filter((r) => unique.has(r.id)).map((r) => r.verdict);
  return { fail: verdicts.filter((v) => v === 'fail').length, warn: verdicts.filter((v) => v === 'warn').length };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
