// The yardstick: a bare node:http server answering fixed bytes per path, the fastest a Node process can
// answer these responses. Started as its own process so it gets a core like the real server does.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [routesFile, port] = process.argv.slice(2);
const routes = new Map<string, Buffer>(
  Object.entries(JSON.parse(readFileSync(routesFile!, 'utf8')) as Record<string, string>).map(
    ([path, body]) => [path, Buffer.from(body)],
  ),
);

const server = createServer((req, res) => {
  const body = routes.get(req.url ?? '');
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
