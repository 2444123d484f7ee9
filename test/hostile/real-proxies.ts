// nginx and HAProxy from the machine's packages in front of a fresh reference, on 127.0.0.1: what a user's road to a
// target looks like. Each proxy runs in the foreground, one process, with its files in a temporary folder.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type ProxyKind = 'nginx' | 'haproxy';

export interface RealProxy {
  url: string;
  close(): Promise<void>;
}

const BINARIES: Record<ProxyKind, string> = { nginx: '/usr/sbin/nginx', haproxy: '/usr/sbin/haproxy' };

/** Why this proxy cannot run here (not installed), or undefined when it can. */
export function missingProxy(kind: ProxyKind): string | undefined {
  const probe = spawnSync(BINARIES[kind], ['-v'], { stdio: 'ignore' });
  return probe.error ? `${kind} is not installed on this machine (apt-get install ${kind})` : undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function nginxConfig(dir: string, port: number, upstream: string): string {
  // the defaults a packaged nginx has (1 MB bodies, 8 KB request lines), as a reverse proxy with keep-alive upstream
  return `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream target { server ${upstream}; keepalive 16; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://target;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
    }
  }
}
`;
}

function haproxyConfig(port: number, upstream: string): string {
  return `global
  maxconn 256
defaults
  mode http
  timeout connect 5s
  timeout client 30s
  timeout server 30s
frontend road
  bind 127.0.0.1:${port}
  default_backend target
backend target
  server reference ${upstream}
`;
}

/** Starts the proxy in front of `upstream` (host:port) and resolves once it accepts connections. */
export async function startRealProxy(kind: ProxyKind, upstream: string): Promise<RealProxy> {
  const dir = mkdtempSync(join(tmpdir(), `cft-${kind}-`));
  const port = await freePort();
  const file = join(dir, `${kind}.conf`);
  writeFileSync(file, kind === 'nginx' ? nginxConfig(dir, port, upstream) : haproxyConfig(port, upstream));
  const args = kind === 'nginx' ? ['-c', file, '-p', dir] : ['-f', file, '-db'];
  const child: ChildProcess = spawn(BINARIES[kind], args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitForPort(port, child, () => stderr);
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

async function waitForPort(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`the proxy exited at start: ${stderr()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the proxy did not listen on 127.0.0.1:${port} within 5 s: ${stderr()}`);
}
