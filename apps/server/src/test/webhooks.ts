import { type IncomingHttpHeaders, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { WebhookEndpointWithSecret, WebhookEventType } from '@pixel-vault/shared';
import { expect } from 'vitest';
import type { Database } from '../db/client.js';
import { webhookDeliveries, webhookEvents } from '../db/schema/index.js';
import type { App } from '../lib/http.js';

// Helpers of the webhook tests (modules/webhooks, issue 37): a real HTTP receiver on 127.0.0.1.

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the receiver does with the next request: answer with a status, hang, or redirect. */
export type ReceiverAnswer = number | 'hang' | { redirect: string; status?: number };

export interface Receiver {
  /** http://127.0.0.1:<port> */
  base: string;
  url(path?: string): string;
  received: ReceivedWebhook[];
  /** Answers for the next requests, in order; then `fallback` (200). */
  answers: ReceiverAnswer[];
  fallback: ReceiverAnswer;
  /** Requests to a path (e.g. a redirect's target). */
  hits(path: string): ReceivedWebhook[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: Omit<Receiver, 'base' | 'url'> & { base?: string } = {
    received: [],
    answers: [],
    fallback: 200,
    hits: (path) => receiver.received.filter((r) => r.path === path),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      receiver.received.push({
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = receiver.answers.shift() ?? receiver.fallback;
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      if (typeof answer === 'number') {
        res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'nope');
        return;
      }
      res.writeHead(answer.status ?? 302, { location: answer.redirect }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return Object.assign(receiver, { base, url: (path = '/hook') => `${base}${path}` }) as Receiver;
}

/** An endpoint made through the API (201), with its secret. */
export async function createEndpoint(
  app: App,
  auth: { authorization: string },
  body: { url: string; events: (WebhookEventType | string)[]; secret?: string; description?: string },
): Promise<WebhookEndpointWithSecret> {
  const res = await app.inject({ method: 'POST', url: '/api/webhooks/admin', headers: auth, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<WebhookEndpointWithSecret>();
}

/** The events of a type the database wrote, oldest first. */
export async function eventsOf(db: Database, type: string) {
  return db.select().from(webhookEvents).where(eq(webhookEvents.type, type)).orderBy(webhookEvents.createdAt);
}

/** Every delivery row of an endpoint. */
export async function deliveriesOf(db: Database, endpointId: string) {
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));
}

/** A clock tests move by hand (starts at the real now, so rows the database dates now() are not ahead). */
export function movableClock(start = new Date()) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}
