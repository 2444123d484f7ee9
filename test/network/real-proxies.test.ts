// The suite through what corporate networks run, where this machine has them (Debian's squid or tinyproxy, nginx):
// a forward proxy named by HTTPS_PROXY and a TLS-terminating reverse proxy whose certificate a private CA signed.
// Without them the test is skipped and its title says which program is missing (`apt-get install squid nginx`).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReference, type RunningReference } from '../../reference/index.ts';
import { runCli } from '../hostile/run-cli.ts';
import { apartFromRoadOrPace } from '../hostile/road-or-pace.ts';

const TLS = join(import.meta.dirname, '..', 'tls');
const find = (name: string) => ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin'].map((d) => join(d, name)).find((p) => existsSync(p));
const nginx = find('nginx');
const forward = find('squid') ? { kind: 'squid' as const, bin: find('squid')! } : find('tinyproxy') ? { kind: 'tinyproxy' as const, bin: find('tinyproxy')! } : undefined;
const missing = [nginx ? undefined : 'nginx', forward ? undefined : 'squid or tinyproxy'].filter(Boolean).join(' and ');
// Rules whose tests cover reads, writes, errors and headers: the whole suite behind two proxies takes minutes here.
const RULES = 'AUTH-01,AUTH-02,TRIG-02,WF-01,ERR-01,PREF-01';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

async function listening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${log()}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(true));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(false)));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listens on ${port}: ${log()}`);
}

describe.skipIf(missing !== '')(`the suite through real proxies${missing ? ` (skipped: ${missing} not installed on this machine)` : ''}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'real-proxies-'));
  const children: ChildProcess[] = [];
  let reference: RunningReference;
  let tlsPort = 0;
  let proxyPort = 0;

  beforeAll(async () => {
    // why: squid drops root for its own user, which must be able to write its logs here
    chmodSync(dir, 0o777);
    reference = await startReference({ regional: false });
    [tlsPort, proxyPort] = await Promise.all([freePort(), freePort()]);
    const upstream = new URL(reference.baseUrl).host;
    writeFileSync(join(dir, 'nginx.conf'), `daemon off; master_process off; pid ${dir}/nginx.pid; error_log ${dir}/nginx-error.log;
events {}
http {
  access_log ${dir}/nginx-access.log; client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  server {
    listen 127.0.0.1:${tlsPort} ssl; ssl_certificate ${TLS}/server.pem; ssl_certificate_key ${TLS}/server.key;
    location / { proxy_pass http://${upstream}; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
`);
    const web = spawn(nginx!, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
    children.push(web);
    await listening(tlsPort, web, () => (existsSync(`${dir}/nginx-error.log`) ? readFileSync(`${dir}/nginx-error.log`, 'utf8') : ''));
    const proxyLog = join(dir, 'proxy-access.log');
    if (forward!.kind === 'squid') {
      writeFileSync(join(dir, 'squid.conf'), `http_port 127.0.0.1:${proxyPort}
acl localnet src 127.0.0.0/8
http_access allow localnet
http_access deny all
cache deny all
pid_filename ${dir}/squid.pid
access_log stdio:${proxyLog}
cache_log ${dir}/squid-cache.log
coredump_dir ${dir}
shutdown_lifetime 0 seconds
`);
      children.push(spawn(forward!.bin, ['-N', '-f', join(dir, 'squid.conf')], { stdio: 'ignore' }));
    } else {
      writeFileSync(join(dir, 'tinyproxy.conf'), `Port ${proxyPort}\nListen 127.0.0.1\nAllow 127.0.0.1\nLogFile "${proxyLog}"\nLogLevel Connect\nConnectPort ${tlsPort}\n`);
      children.push(spawn(forward!.bin, ['-d', '-c', join(dir, 'tinyproxy.conf')], { stdio: 'ignore' }));
    }
    await listening(proxyPort, children.at(-1)!, () => (existsSync(`${dir}/squid-cache.log`) ? readFileSync(`${dir}/squid-cache.log`, 'utf8') : ''));
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await reference?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test(`a run against an https target behind ${forward?.kind ?? 'a forward proxy'} and nginx passes, every request through both`, async ({ skip }) => {
    const target = `https://127.0.0.1:${tlsPort}`;
    const env = { CONFORMANCE_API_KEY: reference.apiKeys.dev, HTTPS_PROXY: `http://127.0.0.1:${proxyPort}`, NO_PROXY: '', no_proxy: '', https_proxy: '' };
    const run = await runCli(['run', '--target', target, '--rules', RULES, '--no-regional-endpoint', '--ca-file', join(TLS, 'ca.pem'), '--report-dir', join(dir, 'r')], env);
    // exit 3: a subset of the rules leaves the others not verified; every selected rule passed
    expect(run.code, run.stdout + run.stderr).toBe(3);
    const report = JSON.parse(readFileSync(join(dir, 'r', 'conformance.json'), 'utf8')) as { requirements: { id: string; verdict: string; tests: { status: string; message?: string }[] }[] };
    const { judged, unjudged } = apartFromRoadOrPace(report.requirements.filter((r) => RULES.split(',').includes(r.id)));
    expect(judged.map((r) => `${r.id} ${r.verdict}`).sort(), JSON.stringify(judged.map((r) => r.tests))).toEqual(judged.map((r) => `${r.id} pass`).sort());
    const proxied = readFileSync(join(dir, 'proxy-access.log'), 'utf8');
    expect(proxied).toContain(`127.0.0.1:${tlsPort}`);
    const served = readFileSync(join(dir, 'nginx-access.log'), 'utf8').split('\n').filter(Boolean);
    expect(served.length).toBeGreaterThan(10);
    // without the CA the same run cannot start, and says which setting trusts it
    const untrusted = await runCli(['run', '--target', target, '--rules', 'AUTH-01', '--no-regional-endpoint', '--report-dir', join(dir, 'u')], env);
    expect(untrusted.stdout + untrusted.stderr).toContain('--ca-file FILE (or NODE_EXTRA_CA_CERTS=FILE)');
    if (unjudged) skip(unjudged);
  });
});
