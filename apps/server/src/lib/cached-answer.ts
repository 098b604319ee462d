import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A JSON answer kept in memory with what it takes to send it cheaply again and again: its ETag (so a
 * client that has it gets a 304 and no body) and its gzip and brotli forms, each made once, on first
 * demand, instead of once per request.
 */
export interface CachedAnswer {
  readonly json: string;
  readonly etag: string;
  /** Filled on first demand by sendCachedAnswer. */
  encoded: { gzip?: Buffer; br?: Buffer };
}

/** Below this, compressing costs more than it saves (the same threshold as the app's compression). */
export const COMPRESS_THRESHOLD = 1024;
const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];

/**
 * Wraps serialized JSON. When `previous` holds the same bytes (a cache entry refilled after its TTL
 * with nothing changed), its compressed forms are kept rather than made again.
 */
export function cachedAnswer(json: string, previous?: CachedAnswer): CachedAnswer {
  if (previous && previous.json === json) return previous;
  // Weak: the gzip, brotli and plain forms are the same answer (RFC 9110 section 8.8.1).
  const etag = `W/"${createHash('sha1').update(json).digest('base64url')}"`;
  return { json, etag, encoded: {} };
}

function encode(answer: CachedAnswer, encoding: Encoding): Buffer {
  let body = answer.encoded[encoding];
  if (!body) {
    body =
      encoding === 'br'
        ? // Quality 5: most of brotli's gain at a fraction of its top setting's time.
          brotliCompressSync(answer.json, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } })
        : gzipSync(answer.json, { level: 6 });
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
 * (`compress: false`).
 */
export function sendCachedAnswer(request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer) {
  // Added to what is there: with CORS the answer also varies by Origin (set by @fastify/cors).
  const vary = reply.getHeader('vary');
  reply
    .header('etag', answer.etag)
    // Browsers and shared caches may keep it, but must ask again (a 304 is cheap) before using it.
    .header('cache-control', 'no-cache')
    .header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
  if (matches(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  const accepted = request.headers['accept-encoding'];
  if (accepted && answer.json.length >= COMPRESS_THRESHOLD) {
    const encoding = negotiate(accepted, [...ENCODINGS]) as Encoding | null;
    if (encoding) return reply.header('content-encoding', encoding).send(encode(answer, encoding));
  }
  return reply.send(answer.json);
}
