// A slow target (300 ms more on every answer) is judged as it is, or not at all: a test that outruns its time limit
// is cancelled, sends nothing more, and is not verified naming how slow the answers were, never failed.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { apartFromRoadOrPace } from './road-or-pace.ts';
import { runBehindFlakyProxy, type FlakyRun } from './flaky-network-run.ts';

const RULES = 'TRIG-02';
/** A time limit that a correct target behind 300 ms of latency cannot meet in every test of these rules. */
const TEST_LIMIT_MS = 2_000;

// why: each run has its own reference and proxy and mostly waits on the latency, so the three wait side by side
describe.concurrent('a slow target', () => {
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

  // Drains of the trigger bucket keep pace with the answers (fixtures/rate-limits/drain-pace.ts): at 300 ms they run it
  // out; at 1.5 s, with a test's budget of 20 s, they cannot and say so, naming the latency, before the time limit.
  // RL-06 and RL-09 have no check on every exchange, so a run of them sends nothing for other rules' traffic.
  const drainConfig = (testMs: number) => {
    const config = join(mkdtempSync(join(tmpdir(), 'cft-slow-drain-')), 'conformance.yaml');
    writeFileSync(config, `timeouts:\n  testMs: ${testMs}\n`);
    return config;
  };
  const testsOf = (run: FlakyRun, rules: string[]) => run.report.requirements.filter((r) => rules.includes(r.id)).flatMap((r) => r.tests.map((t) => ({ id: r.id, ...t })));

  it('1.5 s on every answer: the drains end not verified naming the latency, never failed, never cut off by the time limit', async ({ expect }) => {
    const rules = ['RL-06', 'RL-09'];
    const run = await runBehindFlakyProxy({ resetRate: 0, jitterMs: 0, seed: 1, latencyMs: 1_500 }, ['--rules', rules.join(','), '--config', drainConfig(20_000)], { CONFORMANCE_WORKERS: '1' });
    const tests = testsOf(run, rules);
    expect(tests.map((t) => t.id).sort()).toEqual(rules);
    for (const t of tests) {
      expect(t.status, `${t.name}: ${t.message}`).toBe('not-verified');
      expect(t.message).toMatch(/^answers take ~1\.\d s; 32 in flight \(\d+ of them bulk triggers of cost 100\) cannot outrun a refill of 600\/s within \d+(\.\d)? s/);
    }
    expect(run.leftOnTarget).toEqual([]);
  });

  // why 40 s: a drain that kept to 2 bulk triggers per batch at 300 ms took about 45 s here, and was cut off
  // why the one other outcome: on a busy machine a batch's requests leave spread out and the bucket refills among them
  // (the same reference here, 1 run in 3 at load average 1–3): no drain failed then, the requests amid it could not be timed
  it('300 ms on every answer: the drain sends more bulk triggers per batch and runs the bucket out (RL-06 judged, or the bucket refilled amid a busy batch)', async ({ expect, skip }) => {
    const run = await runBehindFlakyProxy({ resetRate: 0, jitterMs: 0, seed: 1, latencyMs: 300 }, ['--rules', 'RL-06', '--config', drainConfig(40_000)], { CONFORMANCE_WORKERS: '1' });
    expect(run.leftOnTarget).toEqual([]);
    // why: at load average 18 the answers took 1.3 s, not 300 ms: the drain said so, and there is nothing to show
    const { unjudged } = apartFromRoadOrPace(run.report.requirements.filter((r) => r.id === 'RL-06'));
    if (unjudged && !/refilled before the other categories were asked/.test(unjudged)) return skip(unjudged);
    const [rl06] = testsOf(run, ['RL-06']);
    if (rl06?.status !== 'passed') expect(rl06, rl06?.message).toMatchObject({ status: 'not-verified', message: expect.stringMatching(/^the trigger bucket refilled before the other categories were asked/) });
  });

  // A jittery path spreads a batch's arrivals over 150 ms while the bucket refills 90 tokens: single triggers seldom
  // meet it empty. A bulk trigger's 429 (fewer than 100 tokens left) still carries what RL-07 judges, keyed or not.
  it('0–150 ms of jitter on every piece: a keyed 429 that keeps its key is still caught (RL-07)', async ({ expect, skip }) => {
    const run = await runBehindFlakyProxy({ resetRate: 0, jitterMs: 150, seed: 1 }, ['--rules', 'RL-07', '--config', drainConfig(20_000)], { CONFORMANCE_WORKERS: '1' }, { faults: ['keyed-429-keeps-key'] });
    expect(run.leftOnTarget).toEqual([]);
    const rl07 = run.report.requirements.find((r) => r.id === 'RL-07');
    // why: a machine too busy to run the bucket out (answers of 0.6 s at load average 18) names its pace: no verdict, no finding to show
    const { unjudged } = apartFromRoadOrPace(rl07 ? [rl07] : []);
    if (unjudged) return skip(unjudged);
    expect(rl07?.verdict, testsOf(run, ['RL-07']).map((t) => `${t.status}: ${t.message}`).join('\n')).toBe('warn');
    expect(testsOf(run, ['RL-07']).find((t) => t.status === 'failed')?.message).toMatch(/^a keyed (bulk )?trigger refused with 429 was not processed; sent again with the same Idempotency-Key/);
  });
});
