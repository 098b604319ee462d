import { type AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createFastAnswers } from './fast-answers.js';

/**
 * The node:http server ahead of fastify calls `beforeEach` as each request arrives, before anything
 * else handles it (issue 28: PGlite's waiting answers are taken then, DatabaseHandle.takeReplies).
 */
describe('fast answers: beforeEach', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('is called once per request, before fastify’s handler sees it', async () => {
    const seen: string[] = [];
    const fast = createFastAnswers({
      lookup: () => undefined,
      headers: {},
      requestId: () => 'id',
      log: () => ({}) as FastifyBaseLogger,
      cors: false,
      beforeEach: () => seen.push('before'),
    });
    const server = fast.serverFactory((req, res) => {
      seen.push(`handler ${req.url}`);
      res.end('ok');
    }, {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const { port } = server.address() as AddressInfo;
    for (const path of ['/a', '/b']) {
      const answer = await fetch(`http://127.0.0.1:${port}${path}`);
      expect(await answer.text()).toBe('ok');
    }
    expect(seen).toEqual(['before', 'handler /a', 'before', 'handler /b']);
  });
});
