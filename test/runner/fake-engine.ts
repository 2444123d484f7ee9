// A container engine in memory, for the start procedure's tests where no Docker runs: each behaviour a misbehaving
// image or engine shows (exits, never listens, absent image, slow creation, failing removal) is one option.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContainerEngine, ContainerState } from '../../harness/runner/container-engine.ts';

export interface FakeBehaviour {
  imagePresent?: boolean;
  /** Why a pull fails (the engine's words); a pull that succeeds brings the image. */
  pullError?: string;
  /** A pull that never ends (a registry that accepts the connection and says nothing). */
  pullHangs?: boolean;
  /** Resolves the creation when the test says so. */
  creation?: Promise<void>;
  /** The container exits with this code after this many inspections. */
  exitsWith?: { code: number; afterInspections: number };
  /** Serves HTTP (any request gets 401) once running. */
  listens?: boolean;
  logs?: string[];
  removeError?: Error;
}

export class FakeEngine implements ContainerEngine {
  host = '127.0.0.1';
  readonly calls: string[] = [];
  readonly alive = new Set<string>();
  private inspections = 0;
  private server: Server | undefined;

  constructor(private readonly behaviour: FakeBehaviour) {}

  async hasImage(): Promise<boolean> {
    this.calls.push('hasImage');
    return this.behaviour.imagePresent ?? true;
  }

  async pull(): Promise<void> {
    this.calls.push('pull');
    if (this.behaviour.pullHangs) return new Promise(() => undefined);
    if (this.behaviour.pullError) throw Object.assign(new Error(`(HTTP code 500) server error - ${this.behaviour.pullError}`), { statusCode: 500 });
    this.behaviour.imagePresent = true;
  }

  async create(): Promise<string> {
    this.calls.push('create');
    await this.behaviour.creation;
    this.alive.add('f00dcafe0123456789abcdef');
    return 'f00dcafe0123456789abcdef';
  }

  async start(): Promise<void> {
    this.calls.push('start');
    if (this.behaviour.listens) {
      this.server = createServer((_req, res) => res.writeHead(401).end());
      await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    }
  }

  async inspect(): Promise<ContainerState> {
    this.inspections++;
    const exit = this.behaviour.exitsWith;
    if (exit && this.inspections > exit.afterInspections) return { running: false, status: 'exited', exitCode: exit.code, oomKilled: false };
    const port = this.server ? (this.server.address() as AddressInfo).port : 1; // port 1: nothing answers there
    return { running: true, status: 'running', exitCode: 0, oomKilled: false, hostPort: port };
  }

  async logs(): Promise<string[]> {
    return this.behaviour.logs ?? [];
  }

  async remove(id: string): Promise<void> {
    this.calls.push('remove');
    this.server?.close();
    if (this.behaviour.removeError) throw this.behaviour.removeError;
    this.alive.delete(id);
  }
}
