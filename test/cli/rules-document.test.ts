// docs/RULES.md is the catalog and the suites as they are: generated, shipped, printed by `conformance rules`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ALL_OFF, DECLARATIONS, rulesDocument } from '../../cli/explain/rules-document.ts';
import { declaredOff } from '../../report/declared-off.ts';
import { REPO_ROOT } from '../../report/suite-info.ts';
import { REQUIREMENTS } from '../../requirements/index.ts';
import { runCli } from '../hostile/run-cli.ts';

const RULES_FILE = join(REPO_ROOT, 'docs/RULES.md');

describe('docs/RULES.md', () => {
  test('is what the catalog and the suites generate now (regenerate: npm run docs:rules)', () => {
    expect(readFileSync(RULES_FILE, 'utf8') === rulesDocument(), 'docs/RULES.md is out of date: run `npm run docs:rules` and commit it').toBe(true);
  });

  test('has every rule of the catalog with its level, text and how it is verified', () => {
    const doc = rulesDocument();
    for (const r of REQUIREMENTS) {
      const section = doc.split(`### ${r.id} · ${r.level}\n`)[1]?.split('\n### ')[0];
      expect(section, r.id).toBeDefined();
      expect(section).toContain(r.text);
      expect(section).toMatch(/- Verified by: /);
    }
  });

  test('says which rules need a key or a drain, which are verified under load and which a target may declare off', () => {
    const doc = rulesDocument();
    const of = (id: string) => doc.split(`### ${id} · `)[1]!.split('\n### ')[0]!;
    expect(of('AUTH-04')).toContain('Needs a restricted key (`CONFORMANCE_RESTRICTED_API_KEY`): every test');
    expect(of('AUTH-05')).toContain('Needs a secondary key');
    expect(of('RL-04')).toContain('Needs a drained rate-limit bucket');
    expect(of('RL-05')).toMatch(/under load \(`conformance load`: trigger-limit/);
    expect(of('RL-01')).toContain('Not applicable when the target declares rate limiting off (features.rateLimiting)');
    expect(of('VER-02')).toContain('Not applicable when the target declares no regional endpoint');
    expect(of('IDEM-02')).toContain('Needs `--long-checks`: 1 of');
    expect(of('ERR-08')).toContain('summary.exceptedMust');
    expect(of('ERR-01')).toContain('a check on every exchange of the run');
  });

  test('its table of declarations names exactly the rules a declaration takes out', () => {
    const takenOut = REQUIREMENTS.filter((r) => declaredOff(r, ALL_OFF)).map((r) => r.id);
    const covers = (row: string, id: string) => (row.endsWith('-*') ? id.startsWith(row.slice(0, -1)) : id === row);
    expect(takenOut.filter((id) => !DECLARATIONS.some((d) => covers(d.rules, id)))).toEqual([]);
    for (const d of DECLARATIONS) expect(takenOut.some((id) => covers(d.rules, id)), d.rules).toBe(true);
    expect(REQUIREMENTS.filter((r) => !declaredOff(r, ALL_OFF)).some((r) => DECLARATIONS.some((d) => covers(d.rules, r.id)))).toBe(false);
  });

  test('`conformance rules` prints it', async () => {
    const { code, stdout } = await runCli(['rules']);
    expect(code).toBe(0);
    expect(stdout).toBe(readFileSync(RULES_FILE, 'utf8'));
  });
});
