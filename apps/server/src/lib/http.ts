import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from './errors.js';

/** The Fastify instance as route modules see it: zod schemas give typed bodies, queries and params. */
export type App = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export interface RateLimit {
  max: number;
  windowMs: number;
}

/**
 * A route's `config.rateLimit`. The 429 goes through the one error handler like any AppError.
 * `keyedBy` runs after validation when it reads the body (hook preHandler), so it sees clean input.
 */
export function rateLimit(
  limit: RateLimit,
  message: string,
  keyedBy?: (request: FastifyRequest) => string,
): RateLimitOptions {
  return {
    max: limit.max,
    timeWindow: limit.windowMs,
    hook: keyedBy ? 'preHandler' : 'onRequest',
    keyGenerator: keyedBy ?? ((request) => request.ip),
    errorResponseBuilder: () => new AppError(429, message, 'RATE_LIMITED'),
  };
}
