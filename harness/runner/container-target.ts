// Starts the candidate implementation from a container image with testcontainers, waits until it answers HTTP,
// and stops and removes it afterwards — also on SIGINT/SIGTERM and when it fails to start, so nothing is left
// behind even without testcontainers' reaper. Without a container runtime it fails at once with a message that says so.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ContainerRuntimeClient, StartedTestContainer } from 'testcontainers';
import { ConfigError } from '../../config/config-error.ts';
import { Redactor } from '../../report/redactor.ts';
import { firstLine, forceRemove, notRemoved, reaperOrNot, removeOnSignal } from './container-cleanup.ts';

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

/** How many of the container's last log lines an error about it shows. */
const LOG_LINES = 20;

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

export async function startContainerTarget(settings: ContainerSettings, env: Record<string, string | undefined>, log: (line: string) => void = () => undefined): Promise<ContainerTarget> {
  const runtime = findContainerRuntime(env);
  if (!runtime) {
    throw new ConfigError(
      'target.image',
      `no container runtime found: DOCKER_HOST is not set and no Docker socket exists (looked at ${socketCandidates(env).join(', ')}). ` +
        '--target-image needs Docker or a compatible runtime; or start the candidate yourself and pass --target',
    );
  }
  // Loaded only here: testcontainers is heavy and most runs never need it.
  const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers');
  const client = await getContainerRuntimeClient().catch((error: Error) => {
    throw new ConfigError('target.image', `the container runtime at ${runtime} does not answer: ${firstLine(error.message)}`);
  });
  const withoutReaper = await reaperOrNot(client, env);
  if (withoutReaper) log(withoutReaper);

  const redactor = new Redactor(settings.secrets.map((value) => ({ value, placeholder: 'REDACTED' })));
  const tail: string[] = [];
  let containerId: string | undefined;
  class CandidateContainer extends GenericContainer {
    protected override async containerCreated(id: string): Promise<void> {
      containerId = id;
    }
  }
  const container = new CandidateContainer(settings.image)
    .withExposedPorts(settings.port)
    .withEnvironment(settings.env)
    .withWaitStrategy(Wait.forHttp(settings.waitPath, settings.port, { abortOnContainerExit: true }).forStatusCodeMatching((status) => status > 0))
    .withStartupTimeout(settings.startupTimeoutMs)
    .withLogConsumer((stream) => stream.on('data', (chunk) => keepLast(tail, String(chunk))));
  const remove = () => (containerId ? forceRemove(client, containerId, log) : Promise.resolve());
  const release = removeOnSignal(() => containerId, log);

  // testcontainers unrefs the log socket it awaits when the container exited early: without a handle of our own
  // the event loop would empty and node would end mid-start, with code 0, no message and the container left.
  const keepAlive = setInterval(() => undefined, 1_000);
  let started: StartedTestContainer;
  try {
    started = await container.start();
  } catch (error) {
    const lines = tail.length > 0 ? tail : await engineLogs(client, containerId);
    await remove();
    release();
    const shown = lines.length > 0 ? `; its last log lines:\n${lines.map((l) => `  | ${redactor.body(l)}`).join('\n')}` : '; it logged nothing';
    throw new ConfigError('target.image', `could not start ${settings.image} with the container runtime at ${runtime}: ${startFailure(error as Error, settings)}${shown}`);
  } finally {
    clearInterval(keepAlive);
  }
  log(`Container ${started.getId().slice(0, 12)} of ${settings.image} answers on port ${settings.port}`);
  return {
    baseUrl: `http://${started.getHost()}:${started.getMappedPort(settings.port)}`,
    stop: async () => {
      try {
        await started.stop({ timeout: 10_000, remove: true });
      } catch (error) {
        log(notRemoved(started.getId(), (error as Error).message));
      } finally {
        release();
      }
    },
  };
}

/** The log tail straight from the engine, for a container that exited before its logs were followed. */
async function engineLogs(client: ContainerRuntimeClient, id: string | undefined): Promise<string[]> {
  if (!id) return [];
  const lines: string[] = [];
  const stream = await client.container.logs(client.container.getById(id), { tail: LOG_LINES });
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 5_000);
    stream.on('data', (chunk) => keepLast(lines, String(chunk)));
    stream.on('end', () => (clearTimeout(timer), resolve()));
  });
  return lines;
}

function keepLast(lines: string[], chunk: string): void {
  lines.push(...chunk.split('\n').filter((l) => l.trim().length > 0));
  lines.splice(0, Math.max(0, lines.length - LOG_LINES));
}

/** testcontainers' reasons in the words of this tool (its own message would repeat the logs, unredacted). */
function startFailure(error: Error, settings: ContainerSettings): string {
  if (error.message.startsWith('Container exited')) return `the container exited before answering HTTP on port ${settings.port} at ${settings.waitPath}`;
  if (/not accessible after/.test(error.message)) return `no HTTP answer on port ${settings.port} at ${settings.waitPath} within ${settings.startupTimeoutMs / 1000} s (--wait-path, --target-port)`;
  return firstLine(error.message);
}
