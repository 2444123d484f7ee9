// A forward proxy of a few lines for the network tests: absolute-form requests for http, CONNECT tunnels for https.
// Written here rather than taken from a library: it must record what passed through it, and nothing more.
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';

export function tinyProxy() {
  const seen: string[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    headers.push(req.headers);
    const upstream = request(req.url!, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, socket, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = req.url!.split(':');
    const upstream = connect(Number(port), host!, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  return { server, seen, headers };
}
