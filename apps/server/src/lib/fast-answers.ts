import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger, FastifyServerFactory } from 'fastify';
import {
  type AnswerChoice,
  CACHED_ANSWER_CACHE_CONTROL,
  type CachedAnswer,
  type Encoding,
  type MaybeAnswer,
  chooseAnswer,
} from './cached-answer.js';

/**
 * The cached answer for a GET of this URL (path and query as sent), if one is served this way; a
 * promise when it is being made. Any other URL: undefined.
 */
export type FastLookup = (url: string) => MaybeAnswer | undefined;

/**
 * Told of every answer the fast path sent (issue 37: the request metrics), after it was written:
 * the URL as sent, the status (200 or 304) and the seconds it took. Called with plain values only, so
 * it costs the hot path no allocation.
 */
export type FastObserver = (url: string, status: number, seconds: number) => void;

export interface FastAnswersOptions {
  lookup: FastLookup;
  /** The headers every API answer carries (security headers), sent first, as fastify's hook does. */
  headers: Readonly<Record<string, string>>;
  /** The request id, made as fastify's genReqId makes it. */
  requestId: (req: IncomingMessage) => string;
  /** Where the one line per request goes, in the request log's own shape. */
  log: () => FastifyBaseLogger;
  /**
   * Cross-origin requests are fastify's (@fastify/cors answers them); with CORS on, the answers
   * without an Origin still vary by it, as @fastify/cors marks them.
   */
  cors: boolean;
  /** Unset: nothing is measured beyond the log line's milliseconds. */
  observe?: FastObserver | undefined;
  /**
   * Called as each request arrives, before it is handled (PGlite's waiting answers are taken then:
   * DatabaseHandle.takeReplies).
   */
  beforeEach?: (() => void) | undefined;
}

export interface FastAnswers {
  /** Fastify's serverFactory: the node:http server, with the fast path before fastify's handler. */
  serverFactory: FastifyServerFactory;
  /** From then on every request goes to fastify (which answers 503 while it closes). */
  close(): void;
}

const noop = () => {};

/**
 * The catalogue's cached answers sent from node:http, in front of fastify's per-request lifecycle
 * (issue 10). Fastify's routing, hooks, reply object and serialization cost more than the answer
 * itself for the shop's hottest calls, which are already made once and kept (ETag, gzip and brotli
 * forms): a cache hit of `GET /api/products` or `GET /api/products/:id` is written here, with the very
 * status, headers, body and request log line fastify would give it (a test compares the two). Anything
 * else (another method, an Origin with CORS on, a miss, a URL the lookup does not know) goes to
 * fastify untouched, and a miss still starts the query that fastify's route then joins.
 */
export function createFastAnswers({
  lookup,
  headers,
  requestId,
  log,
  cors,
  observe,
  beforeEach,
}: FastAnswersOptions): FastAnswers {
  let closing = false;
  const vary = cors ? 'Origin, Accept-Encoding' : 'Accept-Encoding';
  const apiHeaders = Object.entries(headers).flat();

  /**
   * The headers of an answer in one form (plain, gzip, brotli or 304) as node's flat [name, value, ...]
   * list, made on its first request and kept with the answer: building them per request as an object
   * (spreads of the security headers) cost about a tenth of the fast path's CPU (issue 10).
   */
  const headerLists = new WeakMap<CachedAnswer, Map<AnswerChoice['status'] | Encoding, string[]>>();
  function headerList(found: CachedAnswer, choice: AnswerChoice): string[] {
    let lists = headerLists.get(found);
    if (lists === undefined) headerLists.set(found, (lists = new Map()));
    const form = choice.status === 200 ? (choice.encoding ?? 200) : choice.status;
    let list = lists.get(form);
    if (list === undefined) {
      list = [...apiHeaders, 'etag', found.etag, 'cache-control', CACHED_ANSWER_CACHE_CONTROL, 'vary', vary];
      if (choice.status === 200) {
        list.push('content-type', 'application/json; charset=utf-8');
        if (choice.encoding) list.push('content-encoding', choice.encoding);
        list.push('content-length', String(choice.body.length));
      }
      lists.set(form, list);
    }
    return list;
  }

  function answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (closing || req.method !== 'GET') return false;
    const url = req.url;
    if (url === undefined || (cors && req.headers.origin !== undefined)) return false;
    const found = lookup(url);
    if (found === undefined) return false;
    if (found instanceof Promise) {
      // Fastify's route joins the same query and answers its result or its error.
      found.catch(noop);
      return false;
    }
    const startedAt = performance.now();
    const id = requestId(req);
    const choice = chooseAnswer(found, req.headers['if-none-match'], req.headers['accept-encoding']);
    // A copy of the answer's header list, plus this request's id; node writes a flat list as it is.
    const list = headerList(found, choice).slice();
    list.push('x-request-id', id);
    res.writeHead(choice.status, list);
    res.end(choice.status === 200 ? choice.body : undefined);
    const elapsed = performance.now() - startedAt;
    const ms = Math.round(elapsed * 10) / 10;
    log().info({ reqId: id, method: 'GET', url, status: choice.status, ms }, 'request');
    if (observe !== undefined) observe(url, choice.status, elapsed / 1000);
    return true;
  }

  const serverFactory: FastifyServerFactory = (handler, options) => {
    const server = createServer(options.http ?? {}, (req, res) => {
      if (beforeEach !== undefined) beforeEach();
      if (!answer(req, res)) handler(req, res);
    });
    // What fastify sets on the server it makes itself (lib/server.js), with its defaults filled in.
    const { keepAliveTimeout, requestTimeout, connectionTimeout, maxRequestsPerSocket } = options;
    if (typeof keepAliveTimeout === 'number') server.keepAliveTimeout = keepAliveTimeout;
    if (typeof requestTimeout === 'number') server.requestTimeout = requestTimeout;
    if (typeof connectionTimeout === 'number') server.setTimeout(connectionTimeout);
    if (typeof maxRequestsPerSocket === 'number' && maxRequestsPerSocket > 0) {
      server.maxRequestsPerSocket = maxRequestsPerSocket;
    }
    return server;
  };

  return {
    serverFactory,
    close() {
      closing = true;
    },
  };
}
