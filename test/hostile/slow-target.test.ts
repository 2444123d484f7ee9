// A slow target (300 ms more on every answer) is judged as it is, or not at all: a test that outruns its time limit
// is cancelled, sends nothing more, and is not verified naming how slow the answers were, never failed.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { runBehindFlakyProxy } from './flaky-network-run.ts';

const RULES = 'TRIG-02';
/** A time limit that a correct target behind 300 ms of latency cannot meet in every test of these rules. */
const TEST_LIMIT_MS = 2_000;

describe('a slow target', { timeout: 180_000 }, () => {
  it('a test that outruns timeouts.testMs is not verified naming the answers\' pace, and no rule fails', async ({ expect }) => {
    const config = join(mkdtempSync(join(tmpdir(), 'cft-slow-')), 'conformance.yaml');
    writeFileSync(config, `timeouts:\n  testMs: ${TEST_LIMIT_MS}\n`);
    const run = await runBehindFlakyProxy({ resetRate: 0, jitterMs: 0, seed: 1, latencyMs: 300 }, ['--rules', RULES, '--config', config], { CONFORMANCE_WORKERS: '1' });
    const selected = run.report.requirements.filter((r) => RULES.split(',').includes(r.id));
    expect(selected.filter((r) => r.verdict === 'fail' || r.verdict === 'warn').map((r) => `${r.id}: ${r.tests.find((t) => t.status === 'failed')?.message}`)).toEqual([]);
    const timedOut = selected.flatMap((r) => r.tests).filter((t) => /did not finish within timeouts\.testMs/.test(t.message ?? ''));
    expect(timedOut.length, 'some test outran the limit (else this test proves nothing)').toBeGreaterThan(0);
    for (const t of timedOut) {
      expect(t.status).toBe('not-verified');
      expect(t.message).toMatch(/timeouts\.testMs = 2000 ms \(its \d+ answered requests took \d+ ms at the median, \d+ ms at most\): a slow target or path, not a verdict; it was cancelled and sent nothing more/);
    }
    expect([0, 3]).toContain(run.code);
    expect(run.leftOnTarget, 'a cancelled test still removes what it created').toEqual([]);
  });
});
