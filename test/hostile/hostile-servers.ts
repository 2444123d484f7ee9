// Misbehaving targets on 127.0.0.1, one behaviour each, for the harness's robustness tests.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';

export type Hostility =
  | 'silent' // accepts connections, never answers
  | 'reset' // starts a response, then resets the connection
  | 'garbage' // answers bytes that are not HTTP
  | 'html' // 200 text/html for everything
  | 'huge' // a 10 MB body
  | 'drip' // headers, then the body one byte every 100 ms
  | 'liar' // says application/json, sends HTML
  | 'hang-after-preflight'; // answers the pre-flight, then never again

export interface HostileServer {
  url: string;
  close(): Promise<void>;
}

const ENVIRONMENTS = JSON.stringify({ data: [{ _id: 'e1', name: 'Development', _organizationId: 'o1', identifier: 'dev', type: 'dev', slug: 'dev' }] });

export async function startHostile(kind: Hostility): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = ['silent', 'garbage', 'reset'].includes(kind) ? createTcpServer((socket) => raw(kind, socket)) : createHttpServer((req, res) => http(kind, req, res, timers));
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function raw(kind: Hostility, socket: Socket): void {
  if (kind === 'garbage') socket.once('data', () => socket.end('\x00\x01\x02 this is not HTTP at all \xff\xfe\r\n\r\n'));
  if (kind === 'reset') socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"data":', () => socket.resetAndDestroy()));
}

function http(kind: Hostility, req: IncomingMessage, res: ServerResponse, timers: Set<NodeJS.Timeout>): void {
  req.resume();
  if (kind === 'html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome to nginx!</body></html>');
  if (kind === 'liar') return void res.writeHead(200, { 'content-type': 'application/json' }).end('<html><body>not json</body></html>');
  if (kind === 'huge') return void res.writeHead(200, { 'content-type': 'application/json' }).end(`{"data":"${'x'.repeat(10 * 1024 * 1024)}"}`);
  if (kind === 'drip') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
    const timer = setInterval(() => res.write(' '), 100);
    timers.add(timer);
    res.on('close', () => clearInterval(timer));
    return;
  }
  if (kind === 'hang-after-preflight' && req.method === 'GET' && req.url === '/v1/environments') {
    return void res.writeHead(200, { 'content-type': 'application/json' }).end(ENVIRONMENTS);
  }
  // 'hang-after-preflight' for every other request: never answer.
}

/** A port that nothing listens on. */
export async function closedPort(): Promise<string> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
