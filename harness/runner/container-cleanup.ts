// Nothing a run starts outlives it. testcontainers' reaper (Ryuk) removes containers of a dead session, but it is
// an image of its own that an engine without registry access cannot get: then the run goes on without it. Either
// way the run removes its container itself: at the end, after a failed start, and on SIGINT/SIGTERM.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { ContainerRuntimeClient } from 'testcontainers';

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
 * Until released, SIGINT/SIGTERM first remove the container, then end the process as the signal would have.
 * The removal is synchronous: other handlers of the signal (the suites' vitest exits at once) run after it.
 */
export function removeOnSignal(containerId: () => string | undefined, log: (line: string) => void): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    release();
    const id = containerId();
    if (id) {
      log(`${signal}: removing container ${id.slice(0, 12)} before exiting`);
      removeNow(id, log);
    }
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

/** Removes the container from a child process, so the caller can wait for it without an event loop. */
function removeNow(id: string, log: (line: string) => void): void {
  const testcontainers = pathToFileURL(createRequire(import.meta.url).resolve('testcontainers')).href;
  const script = `const { getContainerRuntimeClient } = await import(${JSON.stringify(testcontainers)});
    const client = await getContainerRuntimeClient();
    await client.container.getById(process.argv[1]).remove({ force: true, v: true }).catch((e) => { if (e.statusCode !== 404) throw e; });`;
  const removal = spawnSync(process.execPath, ['--input-type=module', '-e', script, id], { encoding: 'utf8', timeout: 30_000 });
  if (removal.status !== 0) log(notRemoved(id, removal.stderr || 'no answer within 30 s'));
}

export async function forceRemove(client: ContainerRuntimeClient, id: string, log: (line: string) => void): Promise<void> {
  try {
    await client.container.getById(id).remove({ force: true, v: true });
  } catch (error) {
    // 404: testcontainers already removed it (it does after a failed wait).
    if ((error as { statusCode?: number }).statusCode !== 404) log(notRemoved(id, (error as Error).message));
  }
}

/** Says what is left behind and how to remove it. */
export function notRemoved(id: string, reason: string): string {
  return `Could not remove container ${id.slice(0, 12)}: ${firstLine(reason)}; remove it with \`docker rm -f ${id}\``;
}

export function firstLine(text: string): string {
  return text.split('\n')[0]!;
}
