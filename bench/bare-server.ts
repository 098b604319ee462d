// The yardstick: a bare node:http server answering fixed bytes per path, the fastest a Node process can
// answer these responses. Started as its own process so it gets a core like the real server does.
// Each path answers its body with, when given, the very response headers the shop sent (the same
// bytes on the wire), or else only Content-Type and Content-Length (the body alone).
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import { readFileSync } from 'node:fs';

export interface BareRoute {
  body: string;
  headers?: Record<string, string>;
}

const [routesFile, port] = process.argv.slice(2);
const routes = new Map<string, { body: Buffer; headers: OutgoingHttpHeaders }>(
  Object.entries(JSON.parse(readFileSync(routesFile!, 'utf8')) as Record<string, BareRoute>).map(
    ([path, route]) => {
      const body = Buffer.from(route.body);
      const headers = route.headers ?? { 'content-type': 'application/json; charset=utf-8' };
      return [path, { body, headers: { ...headers, 'content-length': body.length } }];
    },
  ),
);

const server = createServer((req, res) => {
  const route = routes.get(req.url ?? '');
  if (!route) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, route.headers);
  res.end(route.body);
});
server.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
