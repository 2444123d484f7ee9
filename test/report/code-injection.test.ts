// Code outside the release cannot run in a run that certifies: a NODE_OPTIONS preload (or LD_PRELOAD, NODE_PATH, …)
// is recorded with the suite and makes the run not certification-grade; a NODE_OPTIONS that loads nothing does not.
import { describe, expect, it } from 'vitest';
import { assessCertification } from '../../certify/certification.ts';
import { injectedCode } from '../../report/suite-info.ts';
import { certifiableReport } from './sample-report.ts';

describe('code-injecting environment variables', () => {
  it('are recorded: a preload, an import, a loader, LD_PRELOAD; not a heap size', () => {
    expect(injectedCode({ NODE_OPTIONS: '--require /tmp/patch.js' })).toEqual({ NODE_OPTIONS: '--require /tmp/patch.js' });
    expect(injectedCode({ NODE_OPTIONS: '--max-old-space-size=4096 --import=./x.mjs' })).toEqual({ NODE_OPTIONS: '--max-old-space-size=4096 --import=./x.mjs' });
    expect(injectedCode({ NODE_OPTIONS: '-r ./x.js' })).toBeDefined();
    expect(injectedCode({ LD_PRELOAD: '/tmp/hook.so' })).toEqual({ LD_PRELOAD: '/tmp/hook.so' });
    expect(injectedCode({ NODE_OPTIONS: '--max-old-space-size=4096' })).toBeUndefined();
    expect(injectedCode({})).toBeUndefined();
  });

  it('make the run not certification-grade, naming them', () => {
    const report = certifiableReport();
    expect(assessCertification(report, {}).certificationGrade).toBe(true);
    report.suite.injected = { NODE_OPTIONS: '--require /tmp/patch.js' };
    const certification = assessCertification(report, {});
    expect(certification.certificationGrade).toBe(false);
    expect(certification.reasons).toContainEqual({ code: 'code-injected', text: 'code outside the release could run inside the suite: NODE_OPTIONS set for the run' });
  });
});
