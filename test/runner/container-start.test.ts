// The container start procedure against a fake engine (no Docker needed): the true reason of each start failure,
// progress while it waits, a stop at any step that removes what was created, removal errors as messages.
import { describe, expect, it } from 'vitest';
import { removeWhenGone } from '../../harness/runner/container-cleanup.ts';
import { ContainerStartFailed, ContainerStartInterrupted, ContainerTrack, removeContainer, startContainer, type StartPlan } from '../../harness/runner/container-start.ts';
import { Interruption } from '../../harness/runner/interruption.ts';
import { FakeEngine } from './fake-engine.ts';

const SECRET = 'cft-fake-dev-key-00000000001';
const label = { name: 'notification-api-conformance.run', value: 'test-run' };

function plan(overrides: Partial<StartPlan> = {}): StartPlan & { lines: string[] } {
  const lines: string[] = [];
  return { image: 'candidate:1', port: 3000, env: {}, label, waitPath: '/v1/environments', startupTimeoutMs: 60_000, secrets: [SECRET], log: (l) => lines.push(l), progressEveryMs: 40, pollMs: 10, lines, ...overrides };
}

async function failure(engine: FakeEngine, p: StartPlan, track = new ContainerTrack(p.image, label)): Promise<Error> {
  const error = await startContainer(engine, p, track).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(error, 'the start fails').toBeInstanceOf(Error);
  return error!;
}

describe('starting a container target', () => {
  it('answers with the base URL once the wait path answers HTTP, any status', async () => {
    const engine = new FakeEngine({ listens: true });
    const track = new ContainerTrack('candidate:1', label);
    const started = await startContainer(engine, plan(), track);
    expect(started.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const lines: string[] = [];
    await removeContainer(engine, track, (l) => lines.push(l));
    expect(engine.alive.size).toBe(0);
    expect(lines).toEqual(['Removing container f00dcafe0123 (the engine’s own time) …', 'Removed container f00dcafe0123']);
  });

  it('a container that exits at once: its exit code and last log lines, secrets redacted, and it is removed', async () => {
    const engine = new FakeEngine({ exitsWith: { code: 3, afterInspections: 0 }, logs: [`starting with key ${SECRET}`, 'fatal: no database'] });
    const error = await failure(engine, plan());
    expect(error).toBeInstanceOf(ContainerStartFailed);
    expect(error.message).toContain('container f00dcafe0123 of candidate:1 exited with code 3 before answering HTTP on port 3000 at /v1/environments; its last log lines:');
    expect(error.message).toContain('  | fatal: no database');
    expect(error.message).not.toContain(SECRET);
    expect(engine.alive.size, 'removed').toBe(0);
  });

  it('a container that exits after a while: the same, with its code', async () => {
    const engine = new FakeEngine({ exitsWith: { code: 4, afterInspections: 5 }, logs: ['migration failed'] });
    const error = await failure(engine, plan());
    expect(error.message).toMatch(/exited with code 4 before answering HTTP on port 3000 at \/v1\/environments; its last log lines:\n {2}\| migration failed/);
    expect(engine.alive.size).toBe(0);
  });

  it('a container that never listens: the port, the path and the bound, progress while waiting, and it is removed', async () => {
    const engine = new FakeEngine({ logs: [] });
    const p = plan({ startupTimeoutMs: 300 });
    const error = await failure(engine, p);
    expect(error.message).toBe('container f00dcafe0123 of candidate:1 gave no HTTP answer on port 3000 at /v1/environments within 0 s (--target-port, --wait-path); it logged nothing');
    const progress = p.lines.filter((l) => l.includes('so far'));
    expect(progress.length, p.lines.join('\n')).toBeGreaterThanOrEqual(2);
    expect(progress[0]).toMatch(/^Waiting for container f00dcafe0123 of candidate:1 to answer HTTP on port 3000 at \/v1\/environments: \d+ s so far \(at most 0 s\)$/);
    expect(engine.alive.size).toBe(0);
  });

  it('an image that is absent and no registry answers: says so, creates nothing, claims no log', async () => {
    const engine = new FakeEngine({ imagePresent: false, pullError: 'Get "https://registry-1.docker.io/v2/": dial tcp: lookup registry-1.docker.io: no such host' });
    const error = await failure(engine, plan());
    expect(error.message).toMatch(/^the image candidate:1 is not present on the engine and no registry answered \(pull: /);
    expect(error.message).not.toMatch(/logged|log lines/);
    expect(engine.calls).toEqual(['hasImage', 'pull']);
  });

  it('a pull that never ends: a stop ends it at once, and nothing was created; unstopped, its bound ends it', async () => {
    const interruption = new Interruption();
    const stopped = startContainer(new FakeEngine({ imagePresent: false, pullHangs: true }), plan({ signal: interruption.signal }), new ContainerTrack('candidate:1', label)).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 20));
    interruption.request('SIGINT');
    expect(((await stopped) as Error).message).toBe('interrupted (SIGINT) while its image was being pulled; nothing was created');
    const bounded = await failure(new FakeEngine({ imagePresent: false, pullHangs: true }), plan({ pullPatienceMs: 50 }));
    expect(bounded.message).toBe('the image candidate:1 is not present on the engine and no registry answered (pull: no answer within 0 s)');
  });

  it('a stop while the container is being created: the creation is awaited, then the container removed, and nothing started', async () => {
    let created!: () => void;
    const engine = new FakeEngine({ creation: new Promise<void>((r) => (created = r)) });
    const interruption = new Interruption();
    const track = new ContainerTrack('candidate:1', label);
    const starting = startContainer(engine, plan({ signal: interruption.signal }), track).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 20));
    expect(track.creating).toBe(true);
    interruption.request('SIGINT');
    created();
    const error = await starting;
    expect(error).toBeInstanceOf(ContainerStartInterrupted);
    expect((error as Error).message).toBe('interrupted (SIGINT) while container f00dcafe0123 was being created; container f00dcafe0123 was removed');
    expect(engine.calls).toEqual(['hasImage', 'create', 'remove']);
    expect(engine.alive.size).toBe(0);
  });

  it('a stop while waiting for an answer ends the wait at once (not at its bound) and removes the container', async () => {
    const engine = new FakeEngine({});
    const interruption = new Interruption();
    const p = plan({ signal: interruption.signal, startupTimeoutMs: 600_000, pollMs: 60_000 });
    const starting = startContainer(engine, p, new ContainerTrack('candidate:1', label)).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 100));
    interruption.request('SIGTERM');
    const error = await starting;
    expect((error as Error).message).toMatch(/^interrupted \(SIGTERM\) while waiting for container f00dcafe0123 to answer; container f00dcafe0123 was removed$/);
    expect(engine.alive.size).toBe(0);
  });

  it('a removal the engine refuses is a message naming the command that removes it, never a file location', async () => {
    const modemError = Object.assign(new Error('(HTTP code 409) unexpected - removal of container f00dcafe0123 is already in progress '), {
      statusCode: 409,
      json: { message: 'removal of container f00dcafe0123 is already in progress' },
      stack: 'Error: x\n    at /app/node_modules/docker-modem/lib/modem.js:343:17',
    });
    const engine = new FakeEngine({ listens: true, removeError: modemError });
    const track = new ContainerTrack('candidate:1', label);
    await startContainer(engine, plan(), track);
    const lines: string[] = [];
    await removeContainer(engine, track, (l) => lines.push(l));
    expect(lines.slice(1)).toEqual(['Could not remove container f00dcafe0123: removal of container f00dcafe0123 is already in progress; remove it with `docker rm -f f00dcafe0123456789abcdef`']);
  });

  it('a second Ctrl-C names what may be left exactly, with the command that removes it', () => {
    const track = new ContainerTrack('candidate:1', label);
    const handedOver: string[] = [];
    const remover = (target: string) => (handedOver.push(target), 4242);
    expect(removeWhenGone(track, remover), 'nothing created yet').toEqual([]);
    track.creating = true;
    expect(removeWhenGone(track, remover)).toEqual([
      expect.stringMatching(/^the container of candidate:1 being created \(label=notification-api-conformance\.run=test-run\): a background process \(pid \d+\) removes it once the engine has created it; if it stays: docker rm -f \$\(docker ps -aq --filter label=notification-api-conformance\.run=test-run\)$/),
    ]);
    track.creating = false;
    track.id = 'f00dcafe0123456789abcdef';
    expect(removeWhenGone(track, remover)).toEqual([expect.stringMatching(/^container f00dcafe0123 of candidate:1: a background process \(pid \d+\) removes it; if it stays: docker rm -f f00dcafe0123456789abcdef$/)]);
    track.removed = true;
    expect(removeWhenGone(track, remover)).toEqual([]);
    expect(handedOver, 'the background removal gets the label, then the id').toEqual(['label=notification-api-conformance.run=test-run', 'f00dcafe0123456789abcdef']);
  });

  it('a second Ctrl-C runs the hooks registered with the interruption, until they are released', () => {
    const interruption = new Interruption();
    const release = interruption.onExitAtOnce(() => ['container x']);
    expect(interruption.exitAtOnce()).toEqual(['container x']);
    release();
    expect(interruption.exitAtOnce()).toEqual([]);
  });
});
