// The code that runs is what the release covers, or the report says it is not: bin/conformance.js runs the CLI bundle
// cached under node_modules/.cache only while its bytes are those recorded at its build (an edited one is rebuilt),
// a certifying command (--bundle, --sign, bundle, verify-bundle) runs a fresh build, and the report records the
// bundle's digest and how it was checked; bundled code started other than through bin/conformance.js is not
// certification-grade. Real CLI starts, in a copy of the suite whose cache is its own.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { assessCertification } from '../../certify/certification.ts';
import type { ConformanceReport } from '../../report/conformance-report.ts';
import { REPO_ROOT, runningCode } from '../../report/suite-info.ts';
import { SHIPPED_DIRS, SHIPPED_FILES } from '../../report/suite-release.ts';
import { certifiableReport } from './sample-report.ts';
import { SILENCE_BOUND_MS } from '../hostile/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'running-code-'));
const root = join(dir, 'suite');
for (const path of [...SHIPPED_DIRS, ...SHIPPED_FILES]) cpSync(join(REPO_ROOT, path), join(root, path), { recursive: true });
symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'));
/** The copy's own cache (bin/cli-bundle.mjs: one per checkout), inside the shared node_modules: removed afterwards. */
const cache = join(REPO_ROOT, 'node_modules/.cache/conformance-cli', createHash('sha256').update(resolve(root)).digest('hex').slice(0, 12));
afterAll(() => {
  rmSync(cache, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CONFORMANCE_') && !k.startsWith('VITEST')));
// why: spawnSync cannot watch output, so its bound is the whole command; these commands are single-rule runs, far inside it
const cli = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/conformance.js'), ...args], { env: { ...env, CONFORMANCE_WORKERS: '1' }, encoding: 'utf8', timeout: SILENCE_BOUND_MS });
/** The one build in the copy's cache: its main.mjs. */
const cachedMain = () => join(cache, readdirSync(cache, { withFileTypes: true }).find((e) => e.isDirectory() && !e.name.startsWith('building-'))!.name, 'main.mjs');
const MARK = "process.stderr.write('PATCHED CLI RAN\\n');\n";
/** Rewrites the recorded digest to the edited bytes', as bin/cli-bundle.mjs computes it: the edit then passes an ordinary start. */
function forgeRecordedDigest(): void {
  const build = join(cachedMain(), '..');
  const own = pathToFileURL(join(root, '/')).href;
  const hash = createHash('sha256');
  for (const name of readdirSync(build).filter((n) => n !== 'bundle.sha256').sort()) {
    const content = Buffer.from(readFileSync(join(build, name), 'utf8').replaceAll(own, 'file:///<root>/'));
    hash.update(`\0${name}\0${content.length}\0`).update(content);
  }
  writeFileSync(join(build, 'bundle.sha256'), `sha256:${hash.digest('hex')}`);
}
const report = (reportDir: string) => JSON.parse(readFileSync(join(reportDir, 'conformance.json'), 'utf8')) as ConformanceReport;

describe('the code that runs', () => {
  it('from the sources (tsx, vitest): the digest covers them', () => {
    expect(runningCode()).toEqual({ from: 'sources' });
  });

  it('a run records the bundle it ran from, its digest and how its bytes were checked', () => {
    const reportDir = join(dir, 'run');
    const run = cli('run', '--rules', 'AUTH-01', '--report-dir', reportDir);
    expect(run.status, run.stderr).not.toBe(2);
    const code = report(reportDir).suite.code;
    expect(code).toEqual({ from: 'bundle', sha256: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), checked: expect.stringMatching(/^(built|recorded)$/) });
    expect(readFileSync(join(cachedMain(), '../bundle.sha256'), 'utf8')).toBe((code as { sha256: string }).sha256);
  });

  it('an edited cached bundle never runs: the next start rebuilds it from the sources and says so', () => {
    cli('--version');
    appendFileSync(cachedMain(), MARK);
    const start = cli('--version');
    expect(start.status).toBe(0);
    expect(start.stderr).not.toContain('PATCHED CLI RAN');
    expect(start.stderr).toMatch(/^conformance: the cached CLI bundle .* is not what the sources build \(its files hash to sha256:[0-9a-f]{64}, a fresh build to sha256:[0-9a-f]{64}\): rebuilt from the sources, and that build runs$/m);
    expect(readFileSync(cachedMain(), 'utf8')).not.toContain('PATCHED');
  });

  it('an edit that rewrote the recorded digest too never runs in a certifying command (a fresh build runs)', () => {
    cli('--version');
    const main = cachedMain();
    appendFileSync(main, MARK);
    forgeRecordedDigest();
    const verify = cli('verify-bundle', join(dir, 'no-such-bundle.tar.gz'));
    expect(verify.stderr).not.toContain('PATCHED CLI RAN');
    expect(verify.stderr).toMatch(/the cached CLI bundle .* is not what the sources build/);
    expect(readFileSync(cachedMain(), 'utf8')).not.toContain('PATCHED');
  });

  it('conformance bundle signs nothing for a run whose cached bundle was edited with its recorded digest: what it ran is not what the files build', () => {
    const clean = join(dir, 'clean');
    expect(cli('run', '--rules', 'AUTH-01', '--report-dir', clean).status).not.toBe(2);
    const packed = cli('bundle', '--report-dir', clean);
    expect(packed.status, packed.stderr).toBe(0);
    const forged = join(dir, 'forged');
    appendFileSync(cachedMain(), MARK);
    forgeRecordedDigest();
    const run = cli('run', '--rules', 'AUTH-01', '--report-dir', forged);
    expect(run.stderr, 'an ordinary start runs an edit whose recorded digest was rewritten (docs/releasing.md)').toContain('PATCHED CLI RAN');
    expect(report(forged).suite.code).toMatchObject({ from: 'bundle', checked: 'recorded' });
    const refused = cli('bundle', '--report-dir', forged);
    expect(refused.status).toBe(2);
    expect(refused.stderr).not.toContain('PATCHED CLI RAN');
    expect(refused.stderr).toMatch(/the run ran a CLI bundle \(sha256:[0-9a-f]{64}\) that its suite's files do not build \(sha256:[0-9a-f]{64}, built afresh from the same files now\): that code was not the release's; run again — no bundle written, nothing signed/);
    expect(existsSync(join(forged, 'conformance-bundle.tar.gz'))).toBe(false);
  });

  it('bundled code started other than through bin/conformance.js (its bytes unchecked) is not certification-grade', () => {
    cli('--version');
    const reportDir = join(dir, 'unchecked');
    const script = `const { main } = await import(${JSON.stringify(pathToFileURL(cachedMain()).href)}); process.exitCode = await main(['run', '--rules', 'AUTH-01', '--report-dir', ${JSON.stringify(reportDir)}], process.env);`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, env: { ...env, CONFORMANCE_WORKERS: '1' }, encoding: 'utf8', timeout: SILENCE_BOUND_MS });
    expect(run.status, run.stderr).not.toBe(2);
    const written = report(reportDir);
    expect(written.suite.code).toEqual({ from: 'bundle', checked: 'unchecked' });
    expect(written.certification?.reasons).toContainEqual({ code: 'unchecked-code', text: "the CLI ran from a bundle whose bytes nobody checked against the suite's files (started other than through bin/conformance.js)" });
  });

  it('the grade: a bundle checked at its start (built, or its recorded digest) certifies; an unchecked one does not', () => {
    const grade = (code: ConformanceReport['suite']['code']) => {
      const r = certifiableReport();
      r.suite.code = code;
      return assessCertification(r, {}).reasons.map((x) => x.code);
    };
    expect(grade({ from: 'sources' })).toEqual([]);
    expect(grade({ from: 'bundle', sha256: `sha256:${'a'.repeat(64)}`, checked: 'built' })).toEqual([]);
    expect(grade({ from: 'bundle', sha256: `sha256:${'a'.repeat(64)}`, checked: 'recorded' })).toEqual([]);
    expect(grade({ from: 'bundle', checked: 'unchecked' })).toEqual(['unchecked-code']);
  });
});
