// A request whose rejection no test awaited in time (a batch cut short by an earlier fault) can still reset: that is the
// network's, counted beside the tests' own transport faults, never a run error that would make a run non-conformant;
// any other unhandled error still is one.
import { describe, expect, it } from 'vitest';
import { Collector } from '../../harness/runner/collector.ts';
import { buildReport } from '../../report/conformance-report.ts';
import { Redactor } from '../../report/redactor.ts';
import { computeVerdicts } from '../../report/verdicts.ts';
import { transportLine } from '../../report/verdict-text.ts';
import { REQUIREMENTS } from '../../requirements/index.ts';
import { record } from '../report/sample-report.ts';

const KEY = 'nk_dev_secret_key_0123456789';
const reset = { name: 'ExchangeFailed', message: `POST http://127.0.0.1:9/v1/subscribers/bulk?key=${KEY}: connection reset by the target before the response was complete`, exchange: { errorKind: 'reset' } };

function collected(unhandled: object[]): Collector {
  const collector = new Collector(new Redactor([{ value: KEY, placeholder: 'CONFORMANCE_API_KEY' }]));
  collector.onTestRunEnd([], unhandled as never);
  return collector;
}

describe('transport faults outside any test', () => {
  it('a reset, refusal or timeout of an unawaited request is a stray transport fault (redacted), anything else a run error', () => {
    const collector = collected([reset, { ...reset, exchange: { errorKind: 'timeout' } }, { ...reset, exchange: { errorKind: 'tls' } }, { name: 'TypeError', message: 'x is undefined' }, { message: 'connection reset' }]);
    expect(collector.strayTransportFaults).toHaveLength(2);
    expect(collector.strayTransportFaults[0]).toContain('${CONFORMANCE_API_KEY}');
    expect(collector.strayTransportFaults.join()).not.toContain(KEY);
    expect(collector.errors).toEqual([expect.stringMatching(/^unhandled error: POST .*connection reset/), 'unhandled error: x is undefined', 'unhandled error: connection reset']);
  });

  it('a run whose only stray faults are the network\'s stays conformant and says so on its Network line', () => {
    const report = buildReport({
      target: { baseUrl: 'https://candidate.example.test', embeddedReference: false, faults: [] },
      startedAt: new Date(0),
      finishedAt: new Date(1000),
      requirements: computeVerdicts(REQUIREMENTS.map((r) => record([r.id], 'passed')), { idempotency: true, rateLimiting: true }),
      leaks: [],
      errors: [],
      strayTransportFaults: collected([reset]).strayTransportFaults,
    });
    expect(report.summary.verdict).toBe('conformant');
    expect(report.summary.transport).toEqual({ faultsMet: 0, testsRetried: 0, stray: [expect.stringContaining('/v1/subscribers/bulk')] });
    expect(transportLine(report.summary)).toMatch(/^1 transport fault on requests no test awaited in time \(e\.g\. POST .*\/v1\/subscribers\/bulk.*\): the network's, not verdicts$/);
  });
});
