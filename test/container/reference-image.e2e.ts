// `npm run test:container`: the reference as an image on a real engine, started by `conformance run --target-image`.
// Same verdicts as the embedded reference; for images that misbehave as a CI job meets them, the true reason and the
// reports (exit 2); Ctrl-C at every step of a container run (exit 130, reports marked); the CLI started from its
// bundle inside the image; and no container left behind in any case. Skipped, saying why, where no Docker engine
// answers; never part of `npm test`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../report/conformance-report.ts';
import { engineVersion, LOCAL_IMAGE } from '../../reference/image/build-local-image.ts';
import { runCli, spawnCli, type CliResult } from '../hostile/run-cli.ts';

const KEYS = { dev: 'cft-e2e-dev-key-0000000000001', prod: 'cft-e2e-prod-key-000000000002', restricted: 'cft-e2e-restricted-key-00003' };
const KEY_ENV = ['--target-env', `REFERENCE_API_KEY=${KEYS.dev}`, '--target-env', `REFERENCE_SECONDARY_API_KEY=${KEYS.prod}`, '--target-env', `REFERENCE_RESTRICTED_API_KEY=${KEYS.restricted}`];
const KEY_FLAGS = ['--api-key', KEYS.dev, '--secondary-api-key', KEYS.prod, '--restricted-api-key', KEYS.restricted];
const RUN_MS = 600_000;

const engine = engineVersion();
const skipReason = 'no Docker engine answers `docker version` (start dockerd, or set DOCKER_HOST): nothing to test';
if (!engine) process.stdout.write(`test:container skipped: ${skipReason}\n`);

function containers(): string[] {
  return spawnSync('docker', ['ps', '-aq', '--no-trunc'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
}

/** Runs the CLI and checks it left no container behind and printed no key. */
async function runLeavingNothing(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const before = new Set(containers());
  const result = await runCli(args, env, RUN_MS);
  expect(containers().filter((id) => !before.has(id)), 'docker ps -a: no container left behind').toEqual([]);
  for (const key of Object.values(KEYS)) expect(result.stdout + result.stderr, 'no key in the output').not.toContain(key);
  return result;
}

/** Images as a CI job meets them, built FROM the reference image (no registry needed): a process that exits, one that never listens. */
const MISBEHAVING = { exitsAtOnce: 'cft-exits-at-once:1', exitsAfterASecond: 'cft-exits-after-a-second:1', neverListens: 'cft-never-listens:1' };
const ENTRYPOINTS: Record<string, string> = {
  [MISBEHAVING.exitsAtOnce]: `console.log('starting with key ${KEYS.dev}'); console.error('fatal: no database'); process.exit(3)`,
  [MISBEHAVING.exitsAfterASecond]: `console.log('starting with key ${KEYS.dev}'); setTimeout(() => { console.error('migration failed'); process.exit(4); }, 1000)`,
  [MISBEHAVING.neverListens]: `console.log('up, but listening nowhere'); setInterval(() => undefined, 1000)`,
};

function buildMisbehavingImages(): void {
  for (const [image, script] of Object.entries(ENTRYPOINTS)) {
    const dockerfile = `FROM ${LOCAL_IMAGE}\nENTRYPOINT ${JSON.stringify(['node', '-e', script])}\nCMD []\n`;
    // the classic builder: BuildKit would ask a registry about the local base image
    const build = spawnSync('docker', ['build', '-q', '-t', image, '-'], { input: dockerfile, encoding: 'utf8', env: { ...process.env, DOCKER_BUILDKIT: '0' }, timeout: RUN_MS });
    expect(build.status, `docker build ${image}: ${build.stderr}`).toBe(0);
  }
}

const report = (dir: string) => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
const tempDir = () => mkdtempSync(join(tmpdir(), 'cft-e2e-'));

describe(`the reference image on a real engine (${engine ?? 'none'})`, () => {
  beforeEach((context) => {
    if (!engine) context.skip(skipReason);
  });

  beforeAll(() => {
    if (!engine) return;
    const build = spawnSync('npm', ['run', '--silent', 'reference:image'], { encoding: 'utf8', timeout: RUN_MS });
    expect(build.status, `npm run reference:image: ${build.stdout}${build.stderr}`).toBe(0);
    process.stdout.write(build.stdout);
    buildMisbehavingImages();
  });

  it('--target-image gives the embedded reference’s verdicts, and removes its container', async () => {
    const embeddedDir = tempDir();
    const embedded = await runCli(['run', '--report-dir', embeddedDir], {}, RUN_MS);
    // Incomplete (exit 3) until `conformance load` merges RL-05: the same for both targets.
    expect(embedded.code, embedded.stdout + embedded.stderr).toBe(3);

    const containerDir = tempDir();
    const run = await runLeavingNothing(['run', '--target-image', LOCAL_IMAGE, ...KEY_ENV, ...KEY_FLAGS, '--report-dir', containerDir]);
    process.stdout.write(run.stdout.split('\n').filter((l) => !/^\s*(✓|…)/.test(l)).join('\n'));
    expect(run.code, run.stdout + run.stderr).toBe(3);
    const reaperOnEngine = spawnSync('docker', ['image', 'inspect', 'testcontainers/ryuk:0.14.0']).status === 0;
    if (!reaperOnEngine && process.env.TESTCONTAINERS_RYUK_DISABLED === undefined) expect(run.stdout).toMatch(/Reaper image \S+ is neither on the engine nor pullable, so this run goes on without it/);

    const inContainer = new Map(report(containerDir).requirements.map((r) => [r.id, r]));
    const differences = report(embeddedDir).requirements.filter((r) => inContainer.get(r.id)!.verdict !== r.verdict);
    // A container target has one mapped port: the reference's regional listener is not reachable through it.
    expect(differences.map((r) => `${r.id} ${r.verdict} → ${inContainer.get(r.id)!.verdict}`)).toEqual(['VER-02 pass → not-verified']);
    expect(inContainer.get('VER-02')!.reason).toMatch(/no regional base address configured/);
  });

  it('the image starts the CLI from its bundle, built when the image was built (not through tsx)', () => {
    const script = "const { bundledCli } = await import('/app/bin/cli-bundle.mjs'); console.log(JSON.stringify(await bundledCli()));";
    const probe = spawnSync('docker', ['run', '--rm', '--entrypoint', 'node', LOCAL_IMAGE, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: RUN_MS });
    expect(probe.status, probe.stderr).toBe(0);
    // as the image's user (node), who could not write a bundle into the root-owned /app: it was there already
    expect(JSON.parse(probe.stdout)).toMatchObject({ url: expect.stringMatching(/^file:\/\/\/app\/node_modules\/\.cache\/conformance-cli\/.+\/main\.mjs$/), built: false, checked: 'recorded' });
  });

  it('a container that exits at once: exit 2, its exit code and last log lines, a report, and it is removed', async () => {
    const dir = tempDir();
    const result = await runLeavingNothing(['run', '--target-image', LOCAL_IMAGE, '--target-env', 'REFERENCE_API_KEY=too-short', '--api-key', KEYS.dev, '--report-dir', dir]);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(new RegExp(`could not start ${LOCAL_IMAGE}: target.image: container [0-9a-f]{12} of ${LOCAL_IMAGE} exited with code 2 before answering HTTP on port 3000 at /v1/environments; its last log lines:`));
    expect(result.stdout, 'the container’s own words').toContain('| conformance: REFERENCE_API_KEY: a key needs at least 16 characters, got 9');
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
    expectCouldNotRun(dir, /exited with code 2/);
  });

  it.each([
    ['at once', MISBEHAVING.exitsAtOnce, 3, 'fatal: no database'],
    ['after a second', MISBEHAVING.exitsAfterASecond, 4, 'migration failed'],
  ])('an image whose process exits %s: its exit code and redacted log lines in the message and the report', async (_when, image, code, lastWords) => {
    const dir = tempDir();
    const result = await runLeavingNothing(['run', '--target-image', image, ...KEY_FLAGS, '--report-dir', dir]);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(new RegExp(`container [0-9a-f]{12} of ${image} exited with code ${code} before answering HTTP on port 3000 at /v1/environments; its last log lines:`));
    expect(result.stdout).toContain(`| ${lastWords}`);
    expect(result.stdout, 'the key it printed is redacted').toContain('| starting with key [REDACTED]');
    expectCouldNotRun(dir, new RegExp(`exited with code ${code}`));
  });

  it('an image that starts but never listens: progress every 10 s, then the port, path and bound, a report, and it is removed', async () => {
    const dir = tempDir();
    const result = await runLeavingNothing(['run', '--target-image', MISBEHAVING.neverListens, ...KEY_FLAGS, '--report-dir', dir], { CONFORMANCE_RUN_TIMEOUT_MS: '25000' });
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/Waiting for container [0-9a-f]{12} of cft-never-listens:1 to answer HTTP on port 3000 at \/v1\/environments: 1\d s so far \(at most 25 s\)/);
    expect(result.stdout).toMatch(/gave no HTTP answer on port 3000 at \/v1\/environments within 25 s \(--target-port, --wait-path\); its last log lines:\n {2}\| up, but listening nowhere/);
    expectCouldNotRun(dir, /gave no HTTP answer/);
  });

  it('a container that never answers --target-port: exit 2 after the startup time, its last log lines, a report, and it is removed', async () => {
    const dir = tempDir();
    const result = await runLeavingNothing(['run', '--target-image', LOCAL_IMAGE, ...KEY_ENV, '--target-port', '4000', ...KEY_FLAGS, '--report-dir', dir], { CONFORMANCE_RUN_TIMEOUT_MS: '15000' });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('gave no HTTP answer on port 4000 at /v1/environments within 15 s (--target-port, --wait-path)');
    expect(result.stdout, 'the reference announced itself on its own port').toContain('| {"baseUrl":"http://0.0.0.0:3000",');
    expect(result.stdout, 'and never echoed a given key').toContain('"apiKeys":{"dev":"(given: REFERENCE_API_KEY)"');
    expectCouldNotRun(dir, /port 4000/);
  });

  it('an image that is neither on the engine nor pullable: exit 2 saying so, no log claim, a report', async () => {
    const dir = tempDir();
    const result = await runLeavingNothing(['run', '--target-image', 'cft-no-such-image:1', ...KEY_FLAGS, '--report-dir', dir]);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('could not start cft-no-such-image:1: target.image: the image cft-no-such-image:1 is not present on the engine and no registry answered (pull: ');
    expect(result.stdout).not.toMatch(/logged nothing|log lines/);
    expectCouldNotRun(dir, /not present on the engine and no registry answered/);
  });

  it('Ctrl-C while the container is being created: the creation is awaited and removed, nothing is sent, exit 130 with the reports', async () => {
    const dir = tempDir();
    const before = new Set(containers());
    const cli = spawnCli(['run', '--target-image', LOCAL_IMAGE, ...KEY_ENV, ...KEY_FLAGS, '--report-dir', dir], {}, RUN_MS);
    await cli.waitFor(/^Creating a container of /);
    cli.signal('SIGINT');
    const result = await cli.done;
    expect(result.code, result.stdout + result.stderr).toBe(130);
    // a creation takes seconds on this engine (vfs): the signal lands while it is under way
    expect(result.stdout).toMatch(/did not start: interrupted \(SIGINT\) while container [0-9a-f]{12} was being created; container [0-9a-f]{12} was removed/);
    expect(result.stdout, 'no request reached the target').not.toMatch(/Pre-flight|answers on port/);
    expect(report(dir).summary.interrupted).toBe(true);
    expect(containers().filter((id) => !before.has(id)), 'docker ps -a: no container left behind').toEqual([]);
  });

  it('Ctrl-C while a never-answering container starts: ends at once (not at the bound), exit 130 with the reports, nothing left', async () => {
    const dir = tempDir();
    const before = new Set(containers());
    const cli = spawnCli(['run', '--target-image', MISBEHAVING.neverListens, ...KEY_FLAGS, '--report-dir', dir], {}, RUN_MS);
    await cli.waitFor(/^Waiting for container /);
    const signalled = Date.now();
    cli.signal('SIGINT');
    const result = await cli.done;
    process.stdout.write(`Ctrl-C while waiting: the run ended ${((Date.now() - signalled) / 1000).toFixed(1)} s after the signal\n`);
    expect(result.code, result.stdout + result.stderr).toBe(130);
    expect(result.stdout).toMatch(/interrupted \(SIGINT\) while waiting for container [0-9a-f]{12} to answer; container [0-9a-f]{12} was removed/);
    expect(report(dir).summary.interrupted).toBe(true);
    expect(containers().filter((id) => !before.has(id))).toEqual([]);
  });

  it('a second Ctrl-C while the container is being created: exits at once, names it with the command that removes it, and it is removed', async () => {
    const before = new Set(containers());
    const events = containerEvents();
    const cli = spawnCli(['run', '--target-image', LOCAL_IMAGE, ...KEY_ENV, ...KEY_FLAGS, '--report-dir', tempDir()], {}, RUN_MS);
    await cli.waitFor(/^Creating a container of /);
    cli.signal('SIGINT');
    await cli.waitFor(/^Interrupted \(SIGINT\)/);
    cli.signal('SIGINT');
    const result = await cli.done;
    expect(result.code).toBe(130);
    expect(result.stdout).toMatch(
      /MAY BE LEFT: (the container of notification-api-reference:local being created \(label=notification-api-conformance\.run=[0-9a-f-]{36}\): a background process \(pid \d+\) removes it once the engine has created it; if it stays: docker rm -f \$\(docker ps -aq --filter label=notification-api-conformance\.run=[0-9a-f-]{36}\)|container [0-9a-f]{12} of notification-api-reference:local: a background process \(pid \d+\) removes it; if it stays: docker rm -f [0-9a-f]{64})/,
    );
    expect(result.stdout).not.toContain('nothing this command knows of');
    // The background removal outlives the command: the container the engine was creating must appear, then go.
    expect(await events.until(/^destroy /, 200_000), 'the engine created the container, then the background removal destroyed it').toEqual([expect.stringMatching(/^create /), expect.stringMatching(/^destroy /)]);
    expect(containers().filter((id) => !before.has(id)), 'docker ps -a: the background removal left nothing').toEqual([]);
  });

  it('Ctrl-C while tests run: the container outlives the grace period and the sweep — no false leak, no false certification reason', async () => {
    const dir = tempDir();
    const before = new Set(containers());
    const cli = spawnCli(['run', '--target-image', LOCAL_IMAGE, ...KEY_ENV, ...KEY_FLAGS, '--report-dir', dir], {}, RUN_MS);
    await cli.waitFor(/tests done/);
    cli.signal('SIGINT');
    const result = await cli.done;
    expect(result.code, result.stdout + result.stderr).toBe(130);
    expect(result.stdout).not.toMatch(/LEAK:|Could not remove/);
    expect(result.stdout).toMatch(/Removed container [0-9a-f]{12}/);
    const written = report(dir);
    expect(written.summary.interrupted).toBe(true);
    expect(written.leaks).toEqual([]);
    expect(JSON.stringify(written.certification)).not.toMatch(/left behind/);
    expect(containers().filter((id) => !before.has(id))).toEqual([]);
  });

  it('Ctrl-C during the final removal: the removal ends, exit 130, reports marked interrupted, the error a message', async () => {
    const dir = tempDir();
    const before = new Set(containers());
    const cli = spawnCli(['run', '--target-image', LOCAL_IMAGE, ...KEY_ENV, ...KEY_FLAGS, '--rules', 'AUTH-01', '--report-dir', dir], {}, RUN_MS);
    await cli.waitFor(/^Removing container /);
    cli.signal('SIGINT');
    const result = await cli.done;
    expect(result.code, result.stdout + result.stderr).toBe(130);
    expect(result.stdout + result.stderr).not.toMatch(/node_modules|\n\s+at /);
    const written = report(dir);
    expect(written.summary.interrupted).toBe(true);
    expect(written.errors).toContain('the run was interrupted (SIGINT) while its container was being removed; every test had finished');
    expect(containers().filter((id) => !before.has(id))).toEqual([]);
  });
});

/** The engine's create/destroy events of containers carrying a run's label, from now on. */
function containerEvents(): { until: (last: RegExp, timeoutMs: number) => Promise<string[]> } {
  const watcher = spawn('docker', ['events', '--filter', 'type=container', '--filter', 'label=notification-api-conformance.run', '--format', '{{.Action}} {{.Actor.ID}}']);
  const seen: string[] = [];
  watcher.stdout.on('data', (d: Buffer) => seen.push(...String(d).split('\n').filter((l) => /^(create|destroy) /.test(l))));
  return {
    until: async (last, timeoutMs) => {
      const until = Date.now() + timeoutMs;
      while (!seen.some((l) => last.test(l)) && Date.now() < until) await new Promise((r) => setTimeout(r, 1_000));
      watcher.kill();
      return seen;
    },
  };
}

/** The run could not run: the reports exist and say why. */
function expectCouldNotRun(dir: string, reason: RegExp): void {
  const written = report(dir);
  expect(written.summary.verdict).toBe('error');
  expect(written.summary.error).toMatch(reason);
  expect(written.summary.interrupted ?? false).toBe(false);
  for (const file of ['junit.xml', 'conformance.html']) expect(existsSync(join(dir, file)), file).toBe(true);
}
