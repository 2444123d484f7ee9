// Scripts and gates: `run --json` prints one JSON document on stdout (the text on stderr); a staging gate that matched
// its baseline ends with its own verdict line, in the terminal, the HTML header, JUnit and GitHub's job summary.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../hostile/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'cft-gate-'));
const reportDir = join(dir, 'r');
const stepSummary = join(dir, 'step-summary.md');
let result: CliResult;

beforeAll(async () => {
  writeFileSync(join(dir, 'staging.yaml'), 'AUTH-03: fail\n');
  writeFileSync(stepSummary, '# earlier step\n');
  // why: rules with tests of their own, so the run loads two suite files, not all
  result = await runCli(['run', '--rules', 'AUTH-03,AUTH-02', '--fault', 'bearer-accepted', '--expectations', join(dir, 'staging.yaml'), '--report-dir', reportDir, '--json'], { GITHUB_STEP_SUMMARY: stepSummary });
});

describe('a staging gate that matched its baseline', () => {
  it('prints one JSON document on stdout, with the verdict, the gate and every rule', () => {
    expect(result.code, result.stderr).toBe(0);
    const doc = JSON.parse(result.stdout) as Record<string, any>;
    expect(doc).toMatchObject({ command: 'run', exitCode: 0, verdict: 'non-conformant', gate: { passed: true, matched: 1, unexpected: [] }, reportFile: join(reportDir, 'conformance.json') });
    expect(doc.rules).toContainEqual({ id: 'AUTH-03', level: 'MUST', verdict: 'fail' });
    expect(doc.failed.map((r: { id: string }) => r.id)).toEqual(['AUTH-03']);
  });

  it('ends its text (on stderr) with the gate line, after the report\'s own verdict', () => {
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('GATE PASSED: 1 expected gap, 0 unexpected (baseline staging.yaml)');
    expect(result.stderr).toContain('NON-CONFORMANT: ');
  });

  it('shows the gate in the HTML header and as a passed JUnit testcase', () => {
    const html = readFileSync(join(reportDir, 'conformance.html'), 'utf8');
    expect(html.slice(0, html.indexOf('</header>'))).toContain('<div class="gate ok">✔ GATE PASSED: 1 expected gap, 0 unexpected (baseline staging.yaml)</div>');
    const junit = readFileSync(join(reportDir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testcase classname="summary" name="gate against the baseline: passed"[^>]*>\s*<properties>\s*<property name="gate" value="GATE PASSED: 1 expected gap, 0 unexpected \(baseline staging.yaml\)"\/>/);
  });

  it('appends a markdown summary to GITHUB_STEP_SUMMARY, keeping what earlier steps wrote', () => {
    const md = readFileSync(stepSummary, 'utf8');
    expect(md.startsWith('# earlier step\n')).toBe(true);
    expect(md).toContain('## ❌ Conformance: NON-CONFORMANT');
    expect(md).toContain('**✅ GATE PASSED: 1 expected gap, 0 unexpected (baseline staging.yaml)**');
    expect(md).toContain('- **FAIL AUTH-03** (MUST)');
    expect(md).toContain("| AUTH | 1 | 1 | · | 4 | · |");
  });
});
