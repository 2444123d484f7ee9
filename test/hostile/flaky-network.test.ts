// Through a network that resets connections and adds jitter, a correct target is judged as it is directly; a target
// that resets one request every time still fails the rule whose test sends it.
import { describe, it } from 'vitest';
import { runBehindFlakyProxy } from './flaky-network-run.ts';

// Rules whose tests create and remove workflows, subscribers, topics and variables, and send triggers.
const RULES = 'WF-01,WF-02,TRIG-02,TRIG-03,TS-03,TS-05,EV-02,PREF-02,AUTH-05,IDEM-02';
const ONE_WORKER = { CONFORMANCE_WORKERS: '1' };

describe.concurrent('a flaky network in front of the target', () => {
  it('resets and jitter make no rule fail, leave nothing behind, and every fault met is counted', async ({ expect }) => {
    // why: half the connections doomed, far above the 1–2 % a real proxy drops, so that tests meet faults
    const run = await runBehindFlakyProxy({ resetRate: 0.5, jitterMs: 20, seed: 7 }, ['--rules', RULES], ONE_WORKER);
    expect(run.proxy.resetBefore + run.proxy.resetAfter, 'the proxy did reset connections').toBeGreaterThan(0);
    const failed = run.report.requirements.filter((r) => r.verdict === 'fail' || r.verdict === 'warn');
    expect(failed.map((r) => `${r.id}: ${r.tests.find((t) => t.status === 'failed')?.message}`), 'no rule is failed by the network').toEqual([]);
    for (const r of run.report.requirements.filter((x) => RULES.split(',').includes(x.id) && x.verdict === 'not-verified')) {
      // a rule with a passing test says which of its tests the network kept from verifying
      expect(r.reason, `${r.id} is not verified only for the network`).toMatch(/^(?:not every aspect was verified: "[^"]+": )?the network: /);
    }
    // which resets land inside a test (and not in the pre-flight, a cleanup or the sweep) depends on timing: counted when they do
    const met = run.report.summary.transport?.faultsMet ?? 0;
    expect(met, 'a test cannot meet more faults than the proxy made').toBeLessThanOrEqual(run.proxy.resetBefore + run.proxy.resetAfter);
    if (met > 0) expect(run.stdout).toMatch(/^Network: \d+ transport faults? .* met by \d+ tests?/m);
    expect(run.report.leaks).toEqual([]);
    expect(run.leftOnTarget, 'what a reset after processing created is removed too').toEqual([]);
  });

  it('a target that resets every trigger fails the rule, with the request named as the root cause', async ({ expect }) => {
    const run = await runBehindFlakyProxy({ resetRate: 0, jitterMs: 0, seed: 1, alwaysReset: /^POST \/v1\/events\/trigger/ }, ['--rules', 'TRIG-02'], ONE_WORKER);
    expect(run.code, run.stdout).toBe(1);
    const trig02 = run.report.requirements.find((r) => r.id === 'TRIG-02')!;
    expect(trig02.verdict).toBe('fail');
    expect(trig02.tests.map((t) => t.message ?? '').join('\n')).toMatch(/the target resets the connection on POST \/v1\/events\/trigger every time it is sent \(\d+ tries/);
    expect(run.leftOnTarget).toEqual([]);
  });

  // One request of each concurrent batch reset (IDEM-03 sends 24 duplicates at once): the batch's other requests,
  // still in flight when the first fault ends the try, are part of it, so no request faulted "every time it was sent".
  it('a network that resets one request of every concurrent batch is the network, not a finding', async ({ expect }) => {
    const run = await runBehindFlakyProxy({ resetRate: 0, jitterMs: 100, seed: 1, resetOneIn: { request: /^POST \/v1\/events\/trigger$/, every: 20 } }, ['--rules', 'IDEM-03'], ONE_WORKER);
    const idem03 = run.report.requirements.find((r) => r.id === 'IDEM-03')!;
    expect(['fail', 'warn'], idem03.tests.map((t) => `${t.status}: ${t.message}`).join('\n')).not.toContain(idem03.verdict);
    expect(run.proxy.resetBefore, 'the proxy did reset requests').toBeGreaterThan(0);
    expect(run.leftOnTarget).toEqual([]);
  });
});
