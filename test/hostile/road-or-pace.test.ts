// Which unverified rules a harness test may skip for: only those whose every unverified test names the road or the pace.
import { describe, expect, it } from 'vitest';
import { apartFromRoadOrPace } from './road-or-pace.ts';

// reasons as runs of the suite gave them (drain-pace.ts, conformance.ts, transport-retry.ts, an RL-02 test)
const DRAIN = 'answers take ~1.6 s; 32 in flight (24 of them bulk triggers of cost 100) cannot outrun a refill of 600/s within 22 s (at best the bucket would run out in about 20 s, too close to call, burst 3300): the target\'s pace or the path to it, not a verdict about the limit';
const TEST_MS = 'the test did not finish within timeouts.testMs = 60000 ms (its 12 answered requests took 900 ms at the median, 2100 ms at most): a slow target or path, not a verdict; it was cancelled and sent nothing more. Raise timeouts.testMs to judge it';
const NETWORK = 'the network: a transport fault on each of 3 tries, at different requests (POST /v2/workflows, GET /v1/environments); run again or raise run.transportRetries';
const RUN_MS = 'the run was stopped after 900000 ms (timeouts.runMs) before this test started';
const TARGET = 'no response carried the RateLimit headers (RL-01)';

const rule = (id: string, verdict: string, ...tests: [string, string?][]) => ({ id, verdict, tests: tests.map(([status, message]) => ({ status, ...(message ? { message } : {}) })) });

describe('apartFromRoadOrPace', () => {
  it('sets apart a rule whose unverified tests all name the pace or the network, naming the first reason', () => {
    const { judged, unjudged } = apartFromRoadOrPace([rule('RL-07', 'not-verified', ['not-verified', DRAIN], ['passed']), rule('TRIG-02', 'not-verified', ['not-verified', TEST_MS], ['not-verified', NETWORK]), rule('PREF-01', 'not-verified', ['not-verified', RUN_MS]), rule('AUTH-01', 'pass', ['passed'])]);
    expect(judged.map((r) => r.id)).toEqual(['AUTH-01']);
    expect(unjudged).toMatch(/^this machine or path was too slow for a verdict on RL-07: answers take ~1\.6 s/);
  });

  it('keeps a rule unverified for the target\'s own reasons, even beside a pace reason, and every failure', () => {
    const rules = [rule('RL-02', 'not-verified', ['not-verified', TARGET]), rule('RL-04', 'not-verified', ['not-verified', DRAIN], ['not-verified', TARGET]), rule('RL-06', 'fail', ['failed', 'expected 200, got 429'], ['not-verified', DRAIN])];
    expect(apartFromRoadOrPace(rules)).toEqual({ judged: rules });
  });
});
