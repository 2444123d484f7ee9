// Benchmark targets, each in its own process so the engine and wrk measure the same server the same way.
// Run as a child: `node --import tsx load/bench/servers.ts trivial|reference` prints one JSON line {baseUrl, path, …}.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startReference } from '../../reference/index.ts';

const kind = process.argv[2];
if (kind === 'trivial') {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
    res.end('ok');
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ baseUrl: `http://127.0.0.1:${port}`, method: 'GET', path: '/', headers: {} })}\n`);
  });
} else if (kind === 'reference') {
  // why: a limit far above any rate the bench offers, so every request does the full trigger work and gets 201
  const ref = await startReference({ regional: false, rateLimits: { trigger: 10_000_000 } });
  const headers = { authorization: `ApiKey ${ref.apiKeys.dev}`, 'content-type': 'application/json' };
  const res = await fetch(`${ref.baseUrl}/v2/workflows`, { method: 'POST', headers, body: JSON.stringify({ name: 'Bench', workflowId: 'bench', steps: [{ name: 's', type: 'in_app' }], active: true }) });
  if (res.status !== 201) throw new Error(`workflow creation answered ${res.status}`);
  const body = JSON.stringify({ name: 'bench', to: ['bench-sub'] });
  process.stdout.write(`${JSON.stringify({ baseUrl: ref.baseUrl, method: 'POST', path: '/v1/events/trigger', headers, body })}\n`);
} else {
  throw new Error('usage: servers.ts trivial|reference');
}
