// The few container-engine operations a container target needs, over testcontainers' runtime client (dockerode):
// one small surface, so the start procedure can be tested against a fake engine where no Docker runs.
import type { ContainerRuntimeClient, ImageName } from 'testcontainers';

export interface ContainerSpec {
  image: string;
  port: number;
  env: Record<string, string>;
  labels: Record<string, string>;
}

export interface ContainerState {
  running: boolean;
  /** `created`, `running`, `exited`, … as the engine says. */
  status: string;
  exitCode: number;
  oomKilled: boolean;
  /** The host port the container's port is published on, once bound. */
  hostPort?: number;
}

export interface ContainerEngine {
  /** Where published ports are reached. */
  host: string;
  hasImage(image: string): Promise<boolean>;
  pull(image: string): Promise<void>;
  /** Creates the container (not started) and returns its id. */
  create(spec: ContainerSpec): Promise<string>;
  start(id: string): Promise<void>;
  inspect(id: string): Promise<ContainerState>;
  /** Its last `tail` log lines, stdout and stderr together. */
  logs(id: string, tail: number): Promise<string[]>;
  /** Force-removes it with its anonymous volumes; a container that is already gone counts as removed. */
  remove(id: string): Promise<void>;
}

/** `names`: testcontainers' ImageName, passed in because testcontainers is loaded only when a container target is used. */
export function dockerEngine(client: ContainerRuntimeClient, names: typeof ImageName): ContainerEngine {
  const containers = client.container;
  return {
    host: client.info.containerRuntime.host,
    hasImage: (image) => client.image.exists(names.fromString(image)),
    pull: (image) => client.image.pull(names.fromString(image)),
    async create({ image, port, env, labels }) {
      const container = await containers.create({
        Image: image,
        Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
        Labels: labels,
        ExposedPorts: { [`${port}/tcp`]: {} },
        HostConfig: { PortBindings: { [`${port}/tcp`]: [{ HostPort: '' }] } },
      });
      return container.id;
    },
    start: (id) => containers.start(containers.getById(id)),
    async inspect(id) {
      const info = await containers.inspect(containers.getById(id));
      const binding = Object.values(info.NetworkSettings.Ports ?? {}).flatMap((b) => b ?? [])[0];
      return {
        running: info.State.Running,
        status: info.State.Status,
        exitCode: info.State.ExitCode,
        oomKilled: info.State.OOMKilled,
        ...(binding?.HostPort ? { hostPort: Number(binding.HostPort) } : {}),
      };
    },
    async logs(id, tail) {
      // not followed: the engine sends what it has and ends the stream (multiplexed frames, 8-byte headers)
      const raw = (await containers.getById(id).logs({ stdout: true, stderr: true, tail, follow: false })) as unknown as Buffer;
      return lastLines(demultiplex(raw), tail);
    },
    async remove(id) {
      try {
        await containers.getById(id).remove({ force: true, v: true });
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode !== 404) throw error;
      }
    },
  };
}

/** The text of a Docker log stream: frames of [stream, 0, 0, 0, size (4 bytes)] + payload; a TTY's stream is raw. */
export function demultiplex(raw: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  while (at + 8 <= raw.length && raw[at]! <= 2 && raw.readUInt16BE(at + 1) === 0 && raw[at + 3] === 0) {
    const size = raw.readUInt32BE(at + 4);
    parts.push(raw.subarray(at + 8, at + 8 + size));
    at += 8 + size;
  }
  return at === 0 ? raw.toString('utf8') : Buffer.concat(parts).toString('utf8');
}

export function lastLines(text: string, count: number): string[] {
  return text.split('\n').filter((l) => l.trim().length > 0).slice(-count);
}
