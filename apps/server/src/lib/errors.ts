import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiErrorBody } from '@pixel-vault/shared';

/** The one error type services throw; the error handler turns it into `{ message, code? }`. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
    /** Facts a client may act on, sent beside `message` (e.g. `amountDue` on a 402). */
    readonly details?: Pick<ApiErrorBody, 'amountDue'>,
    /** Sent as Retry-After (a 429: when the caller's budget has room again). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (message = 'Not found') => new AppError(404, message, 'NOT_FOUND');

/** Whether PostgreSQL answered `code` (SQLSTATE), however deep the driver wrapped its error. */
export function hasPostgresCode(error: unknown, code: string): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === code) return true;
  }
  return false;
}

/** A PostgreSQL unique violation (23505). */
export const isUniqueViolation = (error: unknown): boolean => hasPostgresCode(error, '23505');

/** A transaction PostgreSQL aborted to break a deadlock (40P01): rolled back, safe to run again. */
export const isDeadlock = (error: unknown): boolean => hasPostgresCode(error, '40P01');

/**
 * PostgreSQL rolled the whole transaction back and it may well pass if run again: a deadlock's victim
 * (40P01) or a serialization failure (40001). Nothing it did was kept, so the client can simply retry.
 */
export const isRetryableAbort = (error: unknown): boolean =>
  isDeadlock(error) || hasPostgresCode(error, '40001');

/**
 * What a client is told when its transaction was aborted (isRetryableAbort), or when a store the
 * request needs first is down (Redis of REDIS_URL): a 503 it may send again in a second, never a 500
 * (nothing a client can send may answer one).
 */
export const busy = () =>
  new AppError(503, 'The shop is busy and nothing was changed. Please try again.', 'BUSY', undefined, 1);

/** Fastify's own 4xx errors, reworded for a person. Anything not listed keeps fastify's message. */
const FASTIFY_MESSAGES: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Malformed JSON body'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Malformed JSON body'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Request body is too large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Unsupported content type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Invalid Content-Length'],
  FST_ERR_CTP_INVALID_CONTENT_ENCODING: [415, 'Unsupported content encoding'],
};

function toErrorBody(error: FastifyError | AppError | Error): { status: number; body: ApiErrorBody } {
  if (error instanceof AppError) {
    const body: ApiErrorBody = { message: error.message };
    if (error.code) body.code = error.code;
    if (error.details) Object.assign(body, error.details);
    return { status: error.statusCode, body };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    return { status: 400, body: { message: error.validation[0]?.message ?? 'Invalid request' } };
  }
  const fastifyError = error as FastifyError;
  const known = fastifyError.code ? FASTIFY_MESSAGES[fastifyError.code] : undefined;
  if (known) return { status: known[0], body: { message: known[1] } };
  if (fastifyError.validation) return { status: 400, body: { message: error.message } };
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, body: { message: error.message || 'Bad request' } };
  }
  return { status: 500, body: { message: 'Something went wrong' } };
}

export function errorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const aborted = isRetryableAbort(error);
  const answered = aborted ? busy() : error;
  const { status, body } = toErrorBody(answered);
  if (answered instanceof AppError && answered.retryAfterSeconds !== undefined) {
    reply.header('retry-after', String(answered.retryAfterSeconds));
  }
  if (aborted) {
    request.log.warn(
      { err: error, reqId: request.id },
      'transaction aborted by the database; the client may retry',
    );
  } else if (status >= 500) {
    request.log.error({ err: error, reqId: request.id }, 'request failed');
  } else if (status !== 401 && status !== 404) {
    request.log.info({ status, message: body.message }, 'request refused');
  }
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * The method of the request node's HTTP parser failed in: the last request line before the byte it
 * failed at (a chunk may also hold the requests before it on a kept-alive connection).
 */
function failedMethod(error: ConnectionError): string | undefined {
  const packet: unknown = error.rawPacket;
  if (!Buffer.isBuffer(packet)) return undefined;
  const end =
    typeof error.bytesParsed === 'number' ? Math.min(error.bytesParsed, packet.length) : packet.length;
  const lines = packet.subarray(0, end).toString('latin1').split('\n');
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const method = /^([A-Z]+) /.exec(lines[i] ?? '')?.[1];
    if (method !== undefined) return method;
  }
  return undefined;
}

/**
 * A request node's HTTP parser refuses (a raw non-ASCII byte in the path, a broken header, a timeout)
 * never reaches fastify: it is answered on the socket, as fastify's own handler answers it, except
 * that a HEAD request gets the status and headers only (issue 28). A HEAD answer has no body; a client
 * reading one would take the body for the start of the next answer.
 */
export function clientErrorHandler(error: ConnectionError, socket: Socket): void {
  // A connection reset: nothing to answer, nobody to answer to.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message]: [number, string] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Client Timeout']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Exceeded maximum allowed HTTP header size']
        : [400, 'Client Error'];
  const reason = STATUS_CODES[status] ?? '';
  const body = JSON.stringify({ error: reason, message, statusCode: status });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\n\r\n` +
        (failedMethod(error) === 'HEAD' ? '' : body),
    );
  }
  socket.destroy(error);
}
