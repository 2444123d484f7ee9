// The candidate implementation from a container image, through testcontainers' runtime client: started, awaited
// until it answers HTTP, and removed afterwards — also when it fails to start and on Ctrl-C, so nothing is left
// behind even without testcontainers' reaper. Without a container runtime it fails at once with a message that says so.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { ConfigError } from '../../config/config-error.ts';
import { firstLine, reaperOrNot, removeOnSignal, removeWhenGone } from './container-cleanup.ts';
import { dockerEngine } from './container-engine.ts';
import { ContainerTrack, removeContainer, short, startContainer } from './container-start.ts';
import type { Interruption } from './interruption.ts';

export interface ContainerSettings {
  image: string;
  port: number;
  env: Record<string, string>;
  /** Any HTTP answer on this path means the service is up (a 401 included). */
  waitPath: string;
  startupTimeoutMs: number;
  /** Values that must not be printed (API keys, the container's environment values): removed from its log lines. */
  secrets: string[];
}

export interface ContainerTarget {
  baseUrl: string;
  stop(): Promise<void>;
}

/** Where a Docker-compatible socket may live when DOCKER_HOST is not set (Docker, Docker Desktop, Podman, Colima). */
function socketCandidates(env: Record<string, string | undefined>): string[] {
  const home = env.HOME ?? homedir();
  const runtimeDir = env.XDG_RUNTIME_DIR;
  return [
    '/var/run/docker.sock',
    join(home, '.docker/run/docker.sock'),
    join(home, '.docker/desktop/docker.sock'),
    join(home, '.colima/default/docker.sock'),
    ...(runtimeDir ? [join(runtimeDir, 'podman/podman.sock'), join(runtimeDir, 'docker.sock')] : []),
  ];
}

/** Fast, local check (no network): is there any container runtime testcontainers could talk to? */
export function findContainerRuntime(env: Record<string, string | undefined>): string | undefined {
  if (env.DOCKER_HOST) return env.DOCKER_HOST;
  if (existsSync(join(env.HOME ?? homedir(), '.testcontainers.properties'))) return '~/.testcontainers.properties';
  return socketCandidates(env).find((path) => existsSync(path));
}

export interface ContainerIo {
  log: (line: string) => void;
  /** The run's first-Ctrl-C handling: the start stops at once, a second Ctrl-C hands the container to a background removal. */
  interruption?: Interruption;
}

/**
 * Starts the container and waits until it answers HTTP. Throws ConfigError when there is no runtime to ask,
 * ContainerStartFailed with the true reason when it could not start, ContainerStartInterrupted when stopped;
 * whatever it created is removed in every case.
 */
export async function startContainerTarget(settings: ContainerSettings, env: Record<string, string | undefined>, io: ContainerIo = { log: () => undefined }): Promise<ContainerTarget> {
  const runtime = findContainerRuntime(env);
  if (!runtime) {
    throw new ConfigError(
      'target.image',
      `no container runtime found: DOCKER_HOST is not set and no Docker socket exists (looked at ${socketCandidates(env).join(', ')}). ` +
        '--target-image needs Docker or a compatible runtime; or start the candidate yourself and pass --target',
    );
  }
  // Loaded only here: testcontainers is heavy and most runs never need it.
  const { getContainerRuntimeClient, getReaper, ImageName, LABEL_TESTCONTAINERS_SESSION_ID } = await import('testcontainers');
  const client = await getContainerRuntimeClient().catch((error: Error) => {
    throw new ConfigError('target.image', `the container runtime at ${runtime} does not answer: ${firstLine(error.message)}`);
  });
  const withoutReaper = await reaperOrNot(client, env);
  if (withoutReaper) io.log(withoutReaper);
  const reaper = process.env.TESTCONTAINERS_RYUK_DISABLED === 'true' ? undefined : await getReaper(client);

  const engine = dockerEngine(client, ImageName);
  const label = { name: RUN_LABEL, value: randomUUID() };
  const track = new ContainerTrack(settings.image, label);
  const forget = io.interruption ? io.interruption.onExitAtOnce(() => removeWhenGone(track)) : removeOnSignal(track, io.log);
  try {
    const { id, baseUrl } = await startContainer(engine, {
      ...settings,
      label,
      ...(reaper ? { extraLabels: { [LABEL_TESTCONTAINERS_SESSION_ID]: reaper.sessionId } } : {}),
      ...(io.interruption ? { signal: io.interruption.signal } : {}),
      log: io.log,
    }, track);
    io.log(`Container ${short(id)} of ${settings.image} answers on port ${settings.port} (${baseUrl})`);
    return {
      baseUrl,
      stop: async () => {
        try {
          await removeContainer(engine, track, io.log);
        } finally {
          forget();
        }
      },
    };
  } catch (error) {
    forget();
    throw error;
  }
}

/** The label that marks a run's container, so that a background removal finds it before its id is known. */
const RUN_LABEL = 'notification-api-conformance.run';
