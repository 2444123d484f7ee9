// A load run alone exits as a run would: 1 when a MUST rule failed, 3 when one could not be judged (a starved
// generator), 0 only when every MUST rule it judges passed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportLoad, type LoadDocument } from '../../load/load-report.ts';

const doc = (verdict: string): LoadDocument => ({
  engine: 'node',
  profile: 'short',
  target: { embeddedReference: true, faults: [] },
  expectedRps: 200,
  startedAt: new Date().toISOString(),
  verdicts: [{ id: 'RL-05', level: 'MUST', verdict, tests: [] } as unknown as LoadDocument['verdicts'][number]],
  leaks: [],
  timelines: [],
});

describe('a load run without a report to merge into', () => {
  it.for([['pass', 0], ['fail', 1], ['not-verified', 3]] as const)('exits %s → %i', ([verdict, code]) => {
    expect(reportLoad(mkdtempSync(join(tmpdir(), 'cft-load-exit-')), doc(verdict), { log: () => undefined })).toBe(code);
  });
});
