// Ctrl-C loses nothing: the first SIGINT/SIGTERM stops starting tests, sweeps and writes every report (exit 130);
// a second one exits at once, naming what may be left. The same for `conformance load`. Real child processes.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { spawnCli } from '../hostile/run-cli.ts';

let reference: RunningReference | undefined;
afterEach(async () => {
  await reference?.close();
  reference = undefined;
});

async function runAgainstReference(dir: string) {
  reference = await startReference();
  const { apiKeys } = reference;
  // two suite workers: the stop must reach each of them, and the sweep must find what either created
  return spawnCli(['run', '--target', reference.baseUrl, '--api-key', apiKeys.dev, '--secondary-api-key', apiKeys.prod, '--restricted-api-key', apiKeys.restricted, '--report-dir', dir], { CONFORMANCE_WORKERS: '2' });
}

/** A run against a fresh reference, sent `signal` once its first tests are done. */
async function interruptedRun(signal: NodeJS.Signals) {
  const dir = mkdtempSync(join(tmpdir(), 'cft-interrupt-'));
  const run = await runAgainstReference(dir);
  const before = reference!.inventory();
  await run.waitFor(/tests done/);
  run.signal(signal);
  const result = await run.done;
  return { result, before, report: JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as Report, dir };
}

interface Report {
  summary: { interrupted: boolean; tests: { total: number; passed: number; notVerified: number } };
  errors: string[];
  requirements: { id: string; verdict: string; reason?: string }[];
}

describe('Ctrl-C', () => {
  it('on the first SIGINT a run stops starting tests, removes what it created, writes every report and exits 130', async () => {
    const { result, before, report, dir } = await interruptedRun('SIGINT');
    expect(result.code, result.stdout).toBe(130);
    expect(result.stdout).toContain('Interrupted (SIGINT): no new test starts');
    expect(result.stdout).toMatch(/Stopped: \d+ test\(s\) finished, \d+ did not start; final sweep removed \d+ leftover resource\(s\), nothing carrying the run prefix cft-[0-9a-f]{6} is known to remain/);
    expect(result.stdout).toContain('INTERRUPTED: the verdicts above are those reached before the stop');
    expect(report.summary.interrupted).toBe(true);
    expect(report.summary.tests.passed).toBeGreaterThan(0);
    expect(report.summary.tests.notVerified).toBeGreaterThan(0);
    expect(report.errors.some((e) => e.startsWith('the run was interrupted (SIGINT)'))).toBe(true);
    // Rate-limit suites run last, so a stop during the functional phase leaves their rules unreached.
    expect(report.requirements.find((r) => r.id === 'RL-07')).toMatchObject({ verdict: 'not-verified', reason: expect.stringMatching(/^interrupted \(SIGINT\)/) as string });
    for (const artifact of ['junit.xml', 'conformance.html']) expect(existsSync(join(dir, artifact)), artifact).toBe(true);
    expect(readFileSync(join(dir, 'conformance.html'), 'utf8')).toContain('<b>Interrupted</b>');
    expect(reference!.inventory(), 'everything the run created was removed').toEqual(before);
  });

  it('SIGTERM does the same', async () => {
    const { result, report } = await interruptedRun('SIGTERM');
    expect(result.code).toBe(130);
    expect(report.summary.interrupted).toBe(true);
    expect(report.errors.some((e) => e.startsWith('the run was interrupted (SIGTERM)'))).toBe(true);
  });

  it('on a second signal a run exits at once and prints what may be left on the target', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cft-interrupt-twice-'));
    const run = await runAgainstReference(dir);
    await run.waitFor(/tests done/);
    run.signal('SIGINT');
    await run.waitFor(/Press Ctrl-C again/);
    const second = Date.now();
    run.signal('SIGINT');
    const result = await run.done;
    expect(result.code).toBe(130);
    expect(Date.now() - second, 'exits at once, without waiting for the running tests').toBeLessThan(5_000);
    expect(result.stdout).toContain('Interrupted again (SIGINT): exiting at once, without cleaning up.');
    expect(result.stdout).toMatch(new RegExp(`MAY BE LEFT: resources whose names carry the run prefix cft-[0-9a-f]{6} on ${reference!.baseUrl.replaceAll('.', '\\.')}`));
  });

  it('conformance load judges a cut-short timeline only as far as it went, says so, removes its fixture and exits 130', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cft-load-interrupt-'));
    const load = spawnCli(['load', '--profile', 'short', '--report-dir', dir]);
    await load.waitFor(/trigger-limit: \d+ requests over/);
    await new Promise((r) => setTimeout(r, 1_000));
    load.signal('SIGINT');
    const result = await load.done;

    expect(result.code, result.stdout).toBe(130);
    expect(result.stdout).toContain('INTERRUPTED (SIGINT): the verdicts above judge the timeline only as far as it went.');
    expect(result.stdout).toContain('The load fixture (workflow and subscribers) was removed.');
    const doc = JSON.parse(readFileSync(join(dir, 'load.json'), 'utf8')) as {
      interrupted: { cut: { scenario: string; phasesNotJudged: string[] }[]; notRun: string[] };
      verdicts: { id: string; tests: { name: string; status: string }[] }[];
    };
    // Against the embedded reference every scenario has its own and all run at once: the Ctrl-C cuts each of them.
    expect(doc.interrupted.cut.map((c) => c.scenario).sort()).toEqual(['bulk-cost', 'category-isolation', 'headers-under-load', 'trigger-limit', 'trigger-under-limit']);
    expect(doc.interrupted.cut.find((c) => c.scenario === 'trigger-limit')!.phasesNotJudged).toContain('under-limit');
    expect(doc.interrupted.notRun).toEqual([]);
    const rl05 = doc.verdicts.find((v) => v.id === 'RL-05')!;
    expect(rl05.tests).toContainEqual(expect.objectContaining({ status: 'not-verified', name: expect.stringContaining('interrupted at') as string }));
  });
});
