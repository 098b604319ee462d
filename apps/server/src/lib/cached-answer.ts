import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * An answer (the catalogue's JSON, the sitemap's XML) kept in memory with what it takes to send it
 * cheaply again and again: its ETag (so a client that has it gets a 304 and no body) and its gzip and
 * brotli forms, each made once, on first demand, instead of once per request.
 */
export interface CachedAnswer {
  /**
   * The JSON as UTF-8 bytes, encoded once. A string body would be encoded again on every send (and
   * measured again for its Content-Length): for the 47 kB list that was the largest single cost of
   * a request (issue 10).
   */
  readonly body: Buffer;
  readonly etag: string;
  /** Filled on first demand by sendCachedAnswer. */
  encoded: { gzip?: Buffer; br?: Buffer };
  /**
   * Compressed at a lower setting (brotli 2, gzip 1): for an answer that replaces another after a
   * stock change (issue 28), which a busy checkout makes dozens of times a second. The whole list's
   * 33 kB took 454 us as brotli 5 and takes 104 us as brotli 2, for 10% more bytes.
   */
  readonly quick?: boolean;
}

/** A cache hit as it is; a miss (or a refill after the TTL) while it is being made. */
export type MaybeAnswer = CachedAnswer | Promise<CachedAnswer>;

/** Below this, compressing costs more than it saves (the same threshold as the app's compression). */
export const COMPRESS_THRESHOLD = 1024;
const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/**
 * Wraps a serialized answer. When `previous` holds the same bytes (a cache entry refilled after its
 * TTL with nothing changed), its compressed forms are kept rather than made again.
 */
export function cachedAnswer(
  text: string,
  previous?: CachedAnswer,
  { quick = false }: { quick?: boolean } = {},
): CachedAnswer {
  const body = Buffer.from(text);
  if (previous && previous.body.equals(body)) return previous;
  // Weak: the gzip, brotli and plain forms are the same answer (RFC 9110 section 8.8.1).
  const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
  return quick ? { body, etag, encoded: {}, quick } : { body, etag, encoded: {} };
}

// Quality 5: most of brotli's gain at a fraction of its top setting's time.
const BROTLI = { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } };
const GZIP = { level: 6 };
const QUICK_BROTLI = { params: { [zlib.BROTLI_PARAM_QUALITY]: 2 } };
const QUICK_GZIP = { level: 1 };

function encode(answer: CachedAnswer, encoding: Encoding): Buffer {
  let body = answer.encoded[encoding];
  if (!body) {
    body =
      encoding === 'br'
        ? brotliCompressSync(answer.body, answer.quick ? QUICK_BROTLI : BROTLI)
        : gzipSync(answer.body, answer.quick ? QUICK_GZIP : GZIP);
    answer.encoded[encoding] = body;
  }
  return body;
}

/** `If-None-Match: W/"a", "b"` or `*` against our ETag, compared weakly as GET requires. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.slice(2);
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === etag || t === opaque || t.slice(2) === opaque;
  });
}

/**
 * Sends a cached answer with its ETag, a 304 when the client already holds it, and a precompressed
 * body when the client accepts one. The route must opt out of the app's per-request compression
 * (`compress: false`). Used as the route's whole handler: a cache hit is sent at once, with no promise
 * and nothing returned for fastify to wait on; a miss returns the promise of the send, whose failure
 * (a 404, a database error) goes to the error handler.
 */
export function sendCachedAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: MaybeAnswer,
  kind: AnswerKind = JSON_ANSWER,
): Promise<void> | undefined {
  if (answer instanceof Promise) return answer.then((ready) => send(request, reply, ready, kind));
  send(request, reply, answer, kind);
  return undefined;
}

/** What a request gets of a cached answer: a 304, or the body in the encoding it accepts best. */
export type AnswerChoice = { status: 304 } | { status: 200; body: Buffer; encoding: Encoding | undefined };

/** The one decision both senders make (fastify's below and the fast path's in fast-answers.ts). */
export function chooseAnswer(
  answer: CachedAnswer,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
): AnswerChoice {
  if (matches(ifNoneMatch, answer.etag)) return { status: 304 };
  if (acceptEncoding && answer.body.length >= COMPRESS_THRESHOLD) {
    const encoding = negotiate(acceptEncoding, [...ENCODINGS]) as Encoding | null;
    if (encoding) return { status: 200, body: encode(answer, encoding), encoding };
  }
  return { status: 200, body: answer.body, encoding: undefined };
}

/** Browsers and shared caches may keep it, but must ask again (a 304 is cheap) before using it. */
export const CACHED_ANSWER_CACHE_CONTROL = 'no-cache';

/** What a cached answer is sent as: its media type and how long others may keep it. */
export interface AnswerKind {
  contentType: string;
  cacheControl: string;
}

/** The catalogue's answers. */
export const JSON_ANSWER: AnswerKind = {
  contentType: 'application/json; charset=utf-8',
  cacheControl: CACHED_ANSWER_CACHE_CONTROL,
};

function send(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer, kind: AnswerKind): void {
  // Added to what is there: with CORS the answer also varies by Origin (set by @fastify/cors).
  const vary = reply.getHeader('vary');
  reply
    .header('etag', answer.etag)
    .header('cache-control', kind.cacheControl)
    .header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
  // Preconditions hold for a successful answer only (RFC 9110 section 13.2.1): a 404 page is no 304.
  const ifNoneMatch = reply.statusCode === 200 ? request.headers['if-none-match'] : undefined;
  const choice = chooseAnswer(answer, ifNoneMatch, request.headers['accept-encoding']);
  if (choice.status === 304) {
    reply.code(304).send();
    return;
  }
  reply.type(kind.contentType);
  if (choice.encoding) reply.header('content-encoding', choice.encoding);
  reply.send(choice.body);
}
