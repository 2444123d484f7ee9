// A run against --target-image: the container's settings from the run's, and a start that never ends the run
// without a report — a start that failed or was stopped becomes the reason the run could not run.
import { ConfigError } from '../../config/config-error.ts';
import type { Settings } from '../../config/settings.ts';
import { startContainerTarget, type ContainerIo, type ContainerSettings, type ContainerTarget } from './container-target.ts';
import { ContainerStartFailed, ContainerStartInterrupted } from './container-start.ts';
import type { Interruption } from './interruption.ts';

/** Environment values shorter than this stay readable in the container's log lines (NODE_ENV=test is no secret). */
const MIN_SECRET_ENV_VALUE = 8;
/** The longest wait for a container's first HTTP answer, whatever timeouts.runMs allows. */
const MAX_STARTUP_MS = 120_000;

export type ContainerRunStart = { settings: Settings; container: ContainerTarget } | { settings: Settings; failure: string };

/** Starts the run's container; on failure, the settings still name a target (the image) for the report. */
export async function startRunContainer(settings: Settings, env: Record<string, string | undefined>, io: ContainerIo): Promise<ContainerRunStart> {
  const image = settings.target.image!;
  io.log(`Starting ${image} …`);
  try {
    const container = await startContainerTarget(containerSettings(settings), env, io);
    return { settings: { ...settings, target: { ...settings.target, baseUrl: container.baseUrl } }, container };
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof ContainerStartFailed || error instanceof ContainerStartInterrupted)) throw error;
    const failure =
      error instanceof ContainerStartInterrupted
        ? `the container of ${image} did not start: ${error.message}`
        : `could not start ${image}: ${error instanceof ConfigError ? error.message : `target.image: ${error.message}`}`;
    io.log(failure);
    // not a URL: nothing is sent to it (the run ends before its pre-flight), the report names the image
    return { settings: { ...settings, target: { ...settings.target, baseUrl: `container image ${image} (not started)` } }, failure };
  }
}

/**
 * Removes the run's container once its tests and the final sweep are done. A Ctrl-C that came only now (every test
 * had finished) still makes the run an interrupted one: returns true then, with the run error saying when it came.
 */
export async function stopRunContainer(container: ContainerTarget, interruption: Interruption | undefined, alreadyInterrupted: boolean, runs: { errors: string[] }[]): Promise<boolean> {
  await container.stop();
  if (alreadyInterrupted || !interruption?.requested) return false;
  runs.at(-1)?.errors.push(`the run was interrupted (${interruption.cause}) while its container was being removed; every test had finished`);
  return true;
}

export function containerSettings(settings: Settings): ContainerSettings {
  const { target, timeouts } = settings;
  const env = target.imageEnv ?? {};
  const secrets = [target.apiKey, target.secondaryApiKey, target.restrictedApiKey, ...Object.values(env).filter((v) => v.length >= MIN_SECRET_ENV_VALUE)];
  return {
    image: target.image!,
    port: target.imagePort ?? 3000,
    env,
    waitPath: target.waitPath ?? '/v1/environments',
    startupTimeoutMs: Math.min(timeouts.runMs, MAX_STARTUP_MS),
    secrets: secrets.filter((s): s is string => s !== undefined),
  };
}
