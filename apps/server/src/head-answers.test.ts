// Issue 28: a HEAD answer carries the status and headers a GET would get, and no body, on every
// path. Over a real socket: inject() is not node's HTTP server and hides what it writes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientErrorHandler } from './lib/errors.js';
import { type TestContext, createTestContext } from './test/context.js';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  /** Every byte after the blank line that ends the headers. */
  body: Buffer;
}

let ctx: TestContext;
let port = 0;
const webDist = mkdtempSync(path.join(tmpdir(), 'pv-head-web-'));

beforeAll(async () => {
  // A web app built without its server render: pages are the plain index.html.
  mkdirSync(path.join(webDist, 'assets'));
  writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><title>Pixel Vault</title><div id="root"></div>',
  );
  writeFileSync(path.join(webDist, 'assets', 'app-1234.js'), 'console.log("pixel vault");\n');
  ctx = await createTestContext({ env: { WEB_DIST_DIR: webDist } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await ctx?.close();
  rmSync(webDist, { recursive: true, force: true });
});

/** Sends raw bytes and reads everything until the server closes the connection. */
function send(bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks)));
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer in 5 s')));
    // Not end(): the request says `Connection: close`, and the server closes once it has answered.
    socket.write(bytes);
  });
}

/** The answers in a stream of bytes, as a client reading `method` answers would split them. */
function parse(raw: Buffer): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  expect(end, `no complete head in ${JSON.stringify(raw.toString('latin1'))}`).toBeGreaterThan(0);
  const [statusLine = '', ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.subarray(end + 4) };
}

/** `METHOD <path> HTTP/1.1`, the path's bytes as given (raw non-ASCII included), one request per connection. */
const request = (method: string, target: Buffer | string) =>
  Buffer.concat([
    Buffer.from(`${method} `),
    typeof target === 'string' ? Buffer.from(target, 'latin1') : target,
    Buffer.from(' HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n\r\n'),
  ]);

describe('HEAD answers over a real socket', () => {
  const targets: [string, Buffer | string][] = [
    ["a raw non-ASCII path (refused by node's parser)", Buffer.from('/café', 'utf8')],
    ['a path that is not valid percent-encoding', '/%ZZ'],
    ['an unknown /api path (the 404 handler)', '/api/no-such-thing'],
    ['an id the route refuses (the error handler)', '/api/products/not-an-id'],
    ['a route that needs a login (401)', '/api/users/profile'],
    ['the catalogue (the route behind the GET fast path)', '/api/products'],
    ['a page', '/'],
    ['a client-side route (the SPA fallback)', '/cart'],
    ['a file of the web app', '/assets/app-1234.js'],
    ['a missing upload', '/uploads/none.webp'],
  ];

  it.each(targets)(
    'answers HEAD of %s with the GET status and headers and no body',
    async (_label, target) => {
      const get = parse(await send(request('GET', target)));
      const head = parse(await send(request('HEAD', target)));
      expect(head.status).toBe(get.status);
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      if (get.headers['content-length'] !== undefined) {
        expect(head.headers['content-length']).toBe(get.headers['content-length']);
      }
      expect(head.body.toString('latin1')).toBe('');
      // The GET does get one: the HEAD answer was not simply empty.
      expect(get.body.length).toBeGreaterThan(0);
    },
  );
});

describe('requests refused by the HTTP parser', () => {
  /** What clientErrorHandler writes for a parse error at `at` in `packet` (node's error, as node makes it). */
  function answerTo(packet: Buffer, at: number): string {
    const written: string[] = [];
    const socket = {
      destroyed: false,
      writable: true,
      write: (text: string) => written.push(text),
      destroy() {},
    } as unknown as Socket;
    const error = Object.assign(new Error('Parse Error: Invalid URL'), {
      code: 'HPE_INVALID_URL',
      rawPacket: packet,
      bytesParsed: at,
    }) as unknown as ConnectionError;
    clientErrorHandler(error, socket);
    return written.join('');
  }

  it('answers the HEAD it failed in without a body, even after other requests in the same packet', () => {
    const packet = Buffer.concat([
      Buffer.from('GET /api/health HTTP/1.1\r\nHost: shop.test\r\n\r\nHEAD /caf'),
      Buffer.from([0xc3, 0xa9]),
      Buffer.from(' HTTP/1.1\r\n\r\n'),
    ]);
    const answer = answerTo(packet, packet.indexOf(0xc3));
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toMatch(/\r\nContent-Length: \d+\r\n/);
    expect(answer.endsWith('\r\n\r\n')).toBe(true);
  });

  it('answers a GET it failed in with the body, even after a HEAD in the same packet', () => {
    const packet = Buffer.concat([
      Buffer.from('HEAD /api/health HTTP/1.1\r\nHost: shop.test\r\n\r\nGET /caf'),
      Buffer.from([0xc3, 0xa9]),
      Buffer.from(' HTTP/1.1\r\n\r\n'),
    ]);
    const answer = answerTo(packet, packet.indexOf(0xc3));
    expect(answer.split('\r\n\r\n')[1]).toBe(
      '{"error":"Bad Request","message":"Client Error","statusCode":400}',
    );
  });
});
