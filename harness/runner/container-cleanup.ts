// Nothing a run starts outlives it. testcontainers' reaper (Ryuk) removes containers of a dead session, but it is
// an image of its own that an engine without registry access cannot get: then the run goes on without it. Either
// way the run removes its container itself: at the end, after a failed or stopped start, and on a second Ctrl-C.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { ContainerRuntimeClient } from 'testcontainers';
import { short, type ContainerTrack } from './container-start.ts';

const RYUK_DISABLED = 'TESTCONTAINERS_RYUK_DISABLED';
/** A pull that has not answered by then will not: the run goes on without the reaper. */
const PULL_PATIENCE_MS = 60_000;

/**
 * Leaves the reaper on when its image is on the engine or can be pulled, or when the user set
 * TESTCONTAINERS_RYUK_DISABLED either way; else switches it off for this process and says why in one line.
 */
export async function reaperOrNot(client: ContainerRuntimeClient, env: Record<string, string | undefined>): Promise<string | undefined> {
  if (env[RYUK_DISABLED] !== undefined) return undefined;
  const [{ ImageName }, { getReaperImage }] = await Promise.all([import('testcontainers'), import('testcontainers/build/reaper/reaper.js')]);
  const image = ImageName.fromString(getReaperImage());
  if (await client.image.exists(image)) return undefined;
  const unpullable = await pullFailure(client.image.pull(image));
  if (!unpullable) return undefined;
  process.env[RYUK_DISABLED] = 'true'; // testcontainers reads it from the process environment when it starts
  return `Reaper image ${image.string} is neither on the engine nor pullable, so this run goes on without it and removes its container itself — pull: ${unpullable}`;
}

/** Why the pull failed, or undefined when it succeeded. */
async function pullFailure(pull: Promise<void>): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const patience = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no answer within ${PULL_PATIENCE_MS / 1000} s`), PULL_PATIENCE_MS)));
  try {
    return await Promise.race([pull.then(() => undefined), patience]);
  } catch (error) {
    return firstLine((error as Error).message).trim();
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What a second Ctrl-C (the process exits at once) does about the container: hands its removal to a detached process
 * that outlives this one — a creation under way is awaited through the run's label — and says exactly what may be
 * left and the command that removes it.
 */
export function removeWhenGone(track: ContainerTrack, remover: (target: string) => number | undefined = spawnRemover): string[] {
  if (track.removed || (!track.id && !track.creating)) return [];
  const filter = `label=${track.label.name}=${track.label.value}`;
  const pid = remover(track.id ?? filter);
  const by = pid ? `a background process (pid ${pid}) removes it${track.id ? '' : ' once the engine has created it'}` : 'no background removal could be started';
  return track.id
    ? [`container ${short(track.id)} of ${track.image}: ${by}; if it stays: docker rm -f ${track.id}`]
    : [`the container of ${track.image} being created (${filter}): ${by}; if it stays: docker rm -f $(docker ps -aq --filter ${filter})`]; // prettier-ignore
}

/** How long the background removal looks for a container still being created (vfs engines take up to a minute). */
const REMOVER_PATIENCE_MS = 180_000;

/** A detached node process removing the container by id, or the first one carrying `label=NAME=VALUE` once it exists. */
function spawnRemover(target: string): number | undefined {
  const testcontainers = pathToFileURL(createRequire(import.meta.url).resolve('testcontainers')).href;
  const script = `const { getContainerRuntimeClient } = await import(${JSON.stringify(testcontainers)});
    const client = await getContainerRuntimeClient();
    const docker = client.container.dockerode;
    const target = process.argv[1];
    const remove = (id) => docker.getContainer(id).remove({ force: true, v: true }).catch((e) => { if (e.statusCode !== 404) throw e; });
    if (!target.startsWith('label=')) await remove(target);
    else for (const until = Date.now() + ${REMOVER_PATIENCE_MS}; Date.now() < until; await new Promise((r) => setTimeout(r, 1000))) {
      const found = await docker.listContainers({ all: true, filters: { label: [target.slice(6)] } });
      if (found.length > 0) { for (const c of found) await remove(c.Id); break; }
    }`;
  try {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, target], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    return child.pid;
  } catch {
    return undefined;
  }
}

/**
 * For a run nobody else handles signals for: until released, SIGINT/SIGTERM hand the container to a background
 * removal, print what may be left, then end the process as the signal would have.
 */
export function removeOnSignal(track: ContainerTrack, log: (line: string) => void): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    release();
    for (const line of removeWhenGone(track)) log(`${signal}: MAY BE LEFT: ${line}`);
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  const release = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return release;
}

export function firstLine(text: string): string {
  return text.split('\n')[0]!;
}
