// testcontainers' reaper (Ryuk) removes containers of a dead session, but it is an image of its own: an engine
// without registry access has no way to get it. Then the run goes on without it and removes its container itself.
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
    return (error as Error).message.split('\n')[0]!.trim();
  } finally {
    clearTimeout(timer);
  }
}
