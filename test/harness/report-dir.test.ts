// The report folder is checked before anything is sent: a run whose results cannot be kept never starts.
import { chmodSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeReportDir } from '../../report/report-dir.ts';
import { runCli } from '../hostile/run-cli.ts';

describe('the report folder', () => {
  it('is created with its missing parents and left without the probe file', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'cft-dir-')), 'a', 'b');
    expect(probeReportDir(dir)).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('under a regular file is refused at once, naming --report-dir', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cft-dir-')), 'a-file');
    writeFileSync(file, 'x');
    expect(probeReportDir(join(file, 'reports'))).toMatch(/^--report-dir .*a-file\/reports: the reports cannot be written there \(a file, not a folder, stands in the path/);
  });

  it('under /proc is refused at once instead of spinning (Node\'s recursive mkdir never returns there)', () => {
    expect(probeReportDir('/proc/cft-reports/run-1')).toMatch(/^--report-dir \/proc\/cft-reports\/run-1: the reports cannot be written there \(this file system does not allow creating it at \/proc\/cft-reports\)/);
    expect(existsSync('/proc/cft-reports')).toBe(false);
  });

  // why: root may write anywhere, so as root (CI) this case cannot happen; the /sys case below is read-only for root too
  it.skipIf(process.getuid?.() === 0)('that exists but may not be written is refused (not as root)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cft-dir-'));
    chmodSync(dir, 0o555);
    expect(probeReportDir(dir)).toMatch(/permission denied/);
  });

  it('/sys (read-only for everyone, root included) ends `run` with exit 2 before the pre-flight', async () => {
    const result = await runCli(['run', '--target', 'http://127.0.0.1:9', '--api-key', 'k', '--report-dir', '/sys/cft-reports']);
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stderr).toMatch(/^conformance: --report-dir \(run\.reportDir, CONFORMANCE_REPORT_DIR\): \/sys\/cft-reports: the reports cannot be written there/);
    expect(result.stdout, 'nothing was sent: no pre-flight, no target line').toBe('');
  });

  it("under /proc ends `run` with exit 2 at once (Node's recursive mkdir would spin there at full CPU, deaf to SIGTERM)", async () => {
    const result = await runCli(['run', '--report-dir', '/proc/cft-reports']);
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stderr).toContain('--report-dir');
  });
});
