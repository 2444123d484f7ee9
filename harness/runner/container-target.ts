// Starts the candidate implementation from a container image with testcontainers, waits until it answers HTTP,
// and stops it afterwards. Without a container runtime it fails at once with a message that says so.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../config/config-error.ts';

export interface ContainerSettings {
  image: string;
  port: number;
  env: Record<string, string>;
  /** Any HTTP answer on this path means the service is up (a 401 included). */
  waitPath: string;
  startupTimeoutMs: number;
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

export async function startContainerTarget(settings: ContainerSettings, env: Record<string, string | undefined>): Promise<ContainerTarget> {
  const runtime = findContainerRuntime(env);
  if (!runtime) {
    throw new ConfigError(
      'target.image',
      `no container runtime found: DOCKER_HOST is not set and no Docker socket exists (looked at ${socketCandidates(env).join(', ')}). ` +
        '--target-image needs Docker or a compatible runtime; or start the candidate yourself and pass --target',
    );
  }
  // Loaded only here: testcontainers is heavy and most runs never need it.
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = new GenericContainer(settings.image)
    .withExposedPorts(settings.port)
    .withEnvironment(settings.env)
    .withWaitStrategy(Wait.forHttp(settings.waitPath, settings.port).forStatusCodeMatching((status) => status > 0))
    .withStartupTimeout(settings.startupTimeoutMs);
  let started;
  try {
    started = await container.start();
  } catch (error) {
    throw new ConfigError('target.image', `could not start ${settings.image} with the container runtime at ${runtime}: ${(error as Error).message.split('\n')[0]}`);
  }
  return {
    baseUrl: `http://${started.getHost()}:${started.getMappedPort(settings.port)}`,
    stop: async () => void (await started.stop({ timeout: 10_000 })),
  };
}
