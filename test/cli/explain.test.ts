import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { activeTests } from '../../cli/explain/active-tests.ts';
import { closestRuleIds, editDistance } from '../../cli/explain/closest-ids.ts';
import { explainRule } from '../../cli/explain/rule-explanation.ts';
import { printExplanation } from '../../cli/explain/print-explanation.ts';
import { sourceFiles } from '../../cli/explain/source-files.ts';
import { PASSIVE_CHECKS } from '../../harness/checks/passive-checks.ts';
import { SCHEMA_CHECKED_RULES } from '../../harness/checks/schema-checks.ts';
import { FAULTS } from '../../reference/index.ts';
import { REPO_ROOT } from '../../report/suite-info.ts';
import { RULE_IDS } from '../../requirements/index.ts';
import { runCli } from '../hostile/run-cli.ts';

const lineOf = (file: string, line: number) => readFileSync(join(REPO_ROOT, file), 'utf8').split('\n')[line - 1] ?? '';

describe('conformance explain', () => {
  test('TRIG-02: its tests with file:line, the faults that break it and the reference lines they switch', () => {
    const e = explainRule('TRIG-02');
    expect(e.rule.level).toBe('MUST');
    expect(e.activeTests.map((t) => t.text)).toContain('rejects 101 recipients and triggers nothing');
    for (const t of e.activeTests) expect(lineOf(t.file, t.line)).toMatch(/conformance\(\s*'TRIG-02'/);
    expect(e.faults.map((f) => f.name).sort()).toEqual(['recipient-cap-counts-objects-only', 'recipient-cap-off', 'recipient-cap-off-by-one', 'recipient-cap-partial']);
    expect(e.referenceCode.length).toBeGreaterThan(0);
    for (const l of e.referenceCode) expect(lineOf(l.file, l.line)).toMatch(/has\('recipient-cap-/);
  });

  test('finds every conformance() call of suites/, each at the line of its call', () => {
    const calls = sourceFiles('suites').reduce((n, f) => n + (f.text.match(/\bconformance\(/g)?.length ?? 0), 0);
    const found = activeTests();
    expect(found).toHaveLength(calls);
    for (const t of found) {
      expect(t.rules.length).toBeGreaterThan(0);
      expect(lineOf(t.file, t.line)).toContain('conformance(');
    }
  });

  test('names the passive check of every rule judged on all traffic, at its line', () => {
    for (const id of new Set([...PASSIVE_CHECKS.map((c) => c.rule), ...SCHEMA_CHECKED_RULES])) {
      const checks = explainRule(id).passiveChecks;
      expect(checks.length, id).toBeGreaterThan(0);
      for (const c of checks) expect(lineOf(c.file, c.line), id).toContain(`'${id}'`);
    }
    expect(explainRule('TRIG-02').passiveChecks).toEqual([]);
  });

  test('every rule points at the reference code that implements it, and every fault at the rules it breaks', () => {
    for (const id of RULE_IDS) expect(explainRule(id).referenceCode.length, `${id} has no fault switch and no rule tag in reference/`).toBeGreaterThan(0);
    for (const [name, fault] of Object.entries(FAULTS)) {
      for (const id of fault.rules) expect(explainRule(id).faults.map((f) => f.name), name).toContain(name);
    }
  });

  test('schemas: the route map entries whose shape the rule promises, and the schemas its tests assert', () => {
    expect(explainRule('WF-01').schemas).toContainEqual({ schema: 'WorkflowResponseDto', where: 'POST /v2/workflows → 201 (route map)' });
    expect(explainRule('ERR-02').schemas.map((s) => s.schema)).toContain('ValidationErrorDto');
    expect(explainRule('TRIG-06').schemas.map((s) => s.schema)).toContain('PayloadValidationErrorDto');
    expect(explainRule('EV-01').schemas.some((s) => s.schema === 'EnvironmentVariableDto' && s.where.startsWith('asserted by suites/'))).toBe(true);
    expect(explainRule('AUTH-01').schemas).toEqual([]);
  });

  test('load scenarios that judge a rule under load', () => {
    expect(explainRule('RL-05').loadScenarios.map((s) => s.text.split(':')[0])).toContain('trigger-limit');
    expect(explainRule('AUTH-01').loadScenarios).toEqual([]);
  });

  test('closest IDs by edit distance', () => {
    expect(editDistance('TRIG-02', 'TRIG-02')).toBe(0);
    expect(editDistance('TRIG2', 'TRIG-02')).toBe(2);
    expect(closestRuleIds('TRIG-2')[0]).toBe('TRIG-02');
    expect(closestRuleIds('auth-1')[0]).toBe('AUTH-01');
    expect(closestRuleIds('XYZ-99')).toHaveLength(3);
  });

  test('the command: lowercase accepted (exit 0); an unknown ID exits 2 naming the closest known ones', async () => {
    const ok = await runCli(['explain', 'trig-02']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^TRIG-02 — MUST — /);
    expect(ok.stdout).toMatch(/^Tests \(\d+\)\n(?: {2}.*\n)* {2}suites\/trigger\/recipients\.test\.ts:\d+ {2}rejects 101 recipients/m);
    expect(ok.stdout).toContain('Faults that break it (4)');
    const unknown = await runCli(['explain', 'TRIG-2']);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/unknown rule "TRIG-2"; closest known: TRIG-02, /);
  });

  test('a title written as a template shows what varies and the list it runs once per entry of, never ${…} as written', () => {
    const tests = (id: string) => printExplanation(explainRule(id as never)).split('\nPassive checks')[0]!;
    const text = tests('TRIG-05');
    expect(text).not.toContain('${');
    expect(text).toContain('rejects a bridgeUrl with ‹form.label› and triggers nothing (one test per entry of UNSAFE_BRIDGE_URLS)');
    for (const t of activeTests().filter((a) => a.text.includes('${'))) expect(tests(t.rules[0]!)).not.toContain('${');
  });
});
