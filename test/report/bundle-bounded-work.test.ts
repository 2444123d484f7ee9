// verify-bundle's work is bounded whatever conformance.json holds: too many rules or tests are refused before any
// verdict, summary or junit.xml is rebuilt, JSON deeper than the bound is refused before it is parsed, and a report
// whose fields have the wrong types ends in INVALID naming the field (exit 1), never in an internal error (exit 2).
// Each case prints how long it took (a shared machine: for reading, not asserted).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../cli/main.ts';
import { DEFAULT_SETTINGS } from '../../config/settings.ts';
import { BUNDLE_FILES, bundleFiles, MANIFEST, sha256, writeArchive } from '../../certify/bundle.ts';
import { junitXml } from '../../report/junit.ts';
import { REQUIREMENTS } from '../../requirements/index.ts';
import { certifiableReport } from './sample-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'bundle-bounded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** An unsigned bundle whose conformance.json is `report` (text as given), with a manifest that matches it. */
function bundleWith(report: string): string {
  const sample = certifiableReport();
  const files = bundleFiles({ report: sample, junitXml: junitXml(sample), settings: { ...structuredClone(DEFAULT_SETTINGS), target: { baseUrl: sample.target.baseUrl } } });
  files.set(BUNDLE_FILES.report, report);
  files.delete(MANIFEST);
  files.set(MANIFEST, [...files].map(([name, content]) => `${sha256(content)}  ${name}\n`).join(''));
  return writeArchive(join(dir, `bounded-${++n}.tar.gz`), files, new Date(0));
}

async function verify(file: string, label: string): Promise<{ code: number; out: string }> {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  const started = process.hrtime.bigint();
  try {
    const code = await main(['verify-bundle', file], {});
    return { code, out: out.mock.calls.map((c) => String(c[0])).join('') + err.mock.calls.map((c) => String(c[0])).join('') };
  } finally {
    out.mockRestore();
    err.mockRestore();
    console.log(`${label}: ${Number(process.hrtime.bigint() - started) / 1e6} ms`);
  }
}

const edited = (edit: (r: any) => void) => {
  const report = structuredClone(certifiableReport()) as any;
  edit(report);
  return JSON.stringify(report);
};

async function invalid(report: string, label: string, why: RegExp): Promise<void> {
  const result = await verify(bundleWith(report), label);
  expect(result.out).toMatch(why);
  expect(result.out).toMatch(/^INVALID: /m);
  expect(result.code, result.out).toBe(1);
}

describe('verify-bundle does bounded work on any conformance.json', () => {
  it('40,000 copies of one rule are refused before anything is rebuilt', async () => {
    await invalid(edited((r) => (r.requirements = Array(40_000).fill(r.requirements[0]))), '40,000 rules', new RegExp(`conformance\\.json has the shape of a report \\(requirements must NOT have more than ${REQUIREMENTS.length} items\\)`));
  });

  it('100 rules of 1,000 tests each (more than a run holds) are refused before junit.xml is rebuilt', async () => {
    await invalid(
      edited((r) => r.requirements.forEach((rule: any, i: number) => (rule.tests = Array.from({ length: 1_000 }, (_, j) => ({ name: `t${i}-${j}`, file: `f${j % 50}.test.ts`, status: 'passed', durationMs: 1 }))))),
      '100,000 tests',
      /it lists \d+ tests, more than the 20000 a run can hold/,
    );
  });

  it('JSON nested 30,000 levels deep, as the report and inside a field, is refused before it is parsed', async () => {
    await invalid(`${'['.repeat(30_000)}${']'.repeat(30_000)}`, 'deep array', /conformance\.json is JSON within the verifier's bounds \(it nests deeper than 64 levels\)/);
    const deep = edited((r) => (r.target.declared = { x: 'DEEP' })).replace('"DEEP"', `${'{"a":'.repeat(30_000)}1${'}'.repeat(30_000)}`);
    await invalid(deep, 'deep field', /it nests deeper than 64 levels/);
  });

  const malformed: [string, (r: any) => void, RegExp][] = [
    ['summary is null', (r) => (r.summary = null), /summary must be object/],
    ['target is a number', (r) => (r.target = 5), /target must be object/],
    ['faults is a string', (r) => (r.target.faults = 'x'), /target\.faults must be array/],
    ['certification reasons is a number', (r) => (r.certification.reasons = 3), /certification\.reasons must be array/],
    ['a test is null', (r) => (r.requirements[0].tests = [null]), /requirements\.0\.tests\.0 must be object/],
    ['requirements is a string', (r) => (r.requirements = 'all'), /requirements must be array/],
    ['a rule id is a number', (r) => (r.requirements[3].id = 7), /requirements\.3\.id must be string/],
    ['evidence is an object', (r) => (r.requirements[0].tests[0].evidence = { a: 1 }), /evidence must be array/],
    ['the report is an array', (r) => Object.setPrototypeOf(r, Array.prototype), /the report must be object/],
  ];
  for (const [label, edit, why] of malformed) {
    it(`a report whose ${label} is INVALID, naming the field`, async () => {
      const text = label === 'the report is an array' ? '[]' : edited(edit);
      await invalid(text, label, why);
    });
  }
});
