// `run --rules X` gives X the verdict the full run gives, also for a rule checked on every exchange (IDEM-04).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKED_ON_EVERY_EXCHANGE, selectSuites } from '../../harness/runner/rule-selection.ts';
import { computeVerdicts } from '../../report/verdicts.ts';
import { runCli } from '../hostile/run-cli.ts';
import { record } from '../report/sample-report.ts';

const files = [
  { name: 'auth', source: `conformance('AUTH-01', …)`, serial: false },
  { name: 'errors', source: `conformance('ERR-01', …); conformance('ERR-04', …)`, serial: false },
  { name: 'idempotency', source: `conformance('IDEM-02', …)`, serial: false },
  { name: 'rate-limits', source: `conformance('RL-04', …)`, serial: true },
];
const names = (rules: string[], scope: 'complete' | 'shortest') => {
  const s = selectSuites(rules, files, scope);
  return { files: s.files.map((f) => f.name), forTraffic: s.forTraffic };
};

describe('rule selection', () => {
  it('knows the rules checked on every exchange from the passive checks and the response schemas', () => {
    for (const id of ['ERR-01', 'ERR-02', 'ERR-08', 'ERR-09', 'RL-01', 'RL-02', 'RL-10', 'IDEM-04', 'WF-01', 'RL-04']) expect(CHECKED_ON_EVERY_EXCHANGE.has(id), id).toBe(true);
    expect(CHECKED_ON_EVERY_EXCHANGE.has('AUTH-01')).toBe(false);
  });

  it('runs only the files naming a rule that is checked by its own tests alone', () => {
    expect(names(['AUTH-01'], 'complete')).toEqual({ files: ['auth'], forTraffic: false });
    expect(names([], 'complete')).toEqual({ files: ['auth', 'errors', 'idempotency', 'rate-limits'], forTraffic: false });
  });

  it('gives a rule checked on every exchange the traffic of every functional suite (run --rules)', () => {
    expect(names(['IDEM-04'], 'complete')).toEqual({ files: ['auth', 'errors', 'idempotency'], forTraffic: true });
    expect(names(['ERR-01'], 'complete')).toEqual({ files: ['auth', 'errors', 'idempotency'], forTraffic: true });
    expect(names(['RL-04'], 'complete')).toEqual({ files: ['auth', 'errors', 'idempotency', 'rate-limits'], forTraffic: true });
  });

  it('lets the fault proof stop at a rule’s own tests, and use all traffic only for a rule that has none', () => {
    expect(names(['ERR-01'], 'shortest')).toEqual({ files: ['errors'], forTraffic: false });
    expect(names(['IDEM-04'], 'shortest')).toEqual({ files: ['auth', 'errors', 'idempotency'], forTraffic: true });
  });

  it('reports every unselected rule not-verified, even where the traffic said something about it', () => {
    const verdicts = computeVerdicts([record(['IDEM-02'], 'passed', { observations: [{ rule: 'ERR-01', checked: 3, violations: ['404 body is not the common error body'] }, { rule: 'IDEM-04', checked: 2, violations: [] }] })], { idempotency: true, rateLimiting: true }, {}, ['IDEM-04']);
    const byId = Object.fromEntries(verdicts.map((v) => [v.id, v]));
    expect(byId['IDEM-04']!.verdict).toBe('pass');
    expect(byId['ERR-01']).toMatchObject({ verdict: 'not-verified', reason: 'not among --rules', tests: [] });
    expect(byId['IDEM-02']!.verdict).toBe('not-verified');
  });

  it('fails IDEM-04 under --rules IDEM-04 against a target that does not echo the key, as the full run does', async () => {
    const run = async (extra: string[]) => {
      const dir = mkdtempSync(join(tmpdir(), 'cft-rules-'));
      const result = await runCli(['run', '--rules', 'IDEM-04', '--report-dir', dir, ...extra]);
      const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { requirements: { id: string; verdict: string; tests: { name: string }[] }[] };
      return { code: result.code, rule: report.requirements.find((r) => r.id === 'IDEM-04')!, others: report.requirements.filter((r) => r.id !== 'IDEM-04' && r.verdict !== 'not-verified') };
    };
    // why: two independent CLI runs, each against its own embedded reference
    const [broken, clean] = await Promise.all([run(['--fault', 'no-idempotency-key-echo']), run([])]);
    expect(broken.code).toBe(1);
    expect(broken.rule.verdict).toBe('fail');
    expect(broken.rule.tests[0]!.name).toMatch(/^every exchange of the run \(\d+ checked\)$/);
    expect(broken.others).toEqual([]);
    // A subset leaves the other MUST rules not verified: the run is incomplete (exit 3), never conformant.
    expect(clean.code).toBe(3);
    expect(clean.rule.verdict).toBe('pass');
  });
});
