import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { busy } from './errors.js';
import type { RateLimit } from './http.js';
import { type Budget, type Limiter, type Taken, limiterOf } from './limiter.js';
import { redactUrl } from './urls.js';

/** Every counter's Redis key starts with this (then rate-limiter-flexible's `:` and the budget's key). */
export const REDIS_KEY_PREFIX = 'pixel-vault:limit';

/** How long the shop waits for Redis to answer at start before it gives up. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * rate-limiter-flexible's own increment (set the window if new, add, read its time left), except that
 * a try given back (a negative amount) never takes a counter below zero and never opens a window:
 * given back after its window ended, it would otherwise start the next window one try in credit.
 * The database's counters behave the same way (lib/limiter.ts).
 */
const INCREMENT_SCRIPT = `
local points = tonumber(ARGV[1])
if points < 0 then
  local current = tonumber(redis.call('get', KEYS[1]) or '0')
  if current <= 0 then return {current, redis.call('pttl', KEYS[1])} end
  local consumed = redis.call('incrby', KEYS[1], math.max(points, -current))
  return {consumed, redis.call('pttl', KEYS[1])}
end
redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX')
local consumed = redis.call('incrby', KEYS[1], points)
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('expire', KEYS[1], ARGV[2])
  ttl = 1000 * ARGV[2]
end
return {consumed, ttl}
`;

interface Log {
  warn(obj: object, msg: string): void;
}

/**
 * A connection to REDIS_URL for the rate limits (issue 13). Commands fail at once while it is down
 * (no offline queue): a limited request then answers 503 instead of waiting. Resolves once Redis
 * answers; rejects with a message naming the URL (without its password) when it does not in time.
 */
export async function connectRedis(url: string, log: Log): Promise<Redis> {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: CONNECT_TIMEOUT_MS,
    lazyConnect: true,
  });
  let lastError = '';
  redis.on('error', (error: Error) => {
    // ioredis reconnects by itself; one line per distinct failure, not one per attempt.
    if (error.message === lastError) return;
    lastError = error.message;
    log.warn(
      { err: error },
      'Redis (REDIS_URL) is not answering: rate-limited requests answer 503 until it does',
    );
  });
  redis.on('ready', () => (lastError = ''));
  try {
    await withTimeout(redis.connect(), CONNECT_TIMEOUT_MS);
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new Error(`REDIS_URL ${redactUrl(url, 'REDIS_URL')} did not answer: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return redis;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export interface RedisLimiterOptions {
  redis: Redis;
  log: Log;
  isFailure?: (error: unknown) => boolean;
}

/**
 * The rate limits counted in Redis (REDIS_URL) through rate-limiter-flexible, for shops that already
 * run one: fixed windows as in the database (lib/limiter.ts), each counter changed by one atomic
 * script, and shared by every instance that uses the same Redis.
 */
export function createRedisLimiter({ redis, log, isFailure }: RedisLimiterOptions): Limiter {
  // One rate-limiter-flexible limiter per limit (its `points` and `duration`); they share the keys'
  // space, as a key always comes with the same limit.
  const limiters = new Map<string, RateLimiterRedis>();
  function limiterFor({ max, windowMs }: RateLimit): RateLimiterRedis {
    const id = `${max}/${windowMs}`;
    let limiter = limiters.get(id);
    if (limiter === undefined) {
      limiter = new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: REDIS_KEY_PREFIX,
        points: max,
        // Whole seconds: Redis keeps the window as the key's expiry.
        duration: Math.max(1, Math.round(windowMs / 1000)),
        rejectIfRedisNotReady: true,
        customIncrTtlLuaScript: INCREMENT_SCRIPT,
      });
      limiters.set(id, limiter);
    }
    return limiter;
  }

  async function take(budgets: Budget[]): Promise<Taken> {
    // In the order given, as in the database (lib/limiter.ts): a budget that refuses keeps the try,
    // the ones after it are never charged, the ones before it get theirs back (issue 28).
    const charged: Budget[] = [];
    for (const budget of budgets) {
      try {
        await limiterFor(budget.limit).consume(budget.key);
      } catch (error) {
        // Nothing is tried: the tries that were counted are given back (as far as Redis lets us).
        await refund(charged);
        if (error instanceof RateLimiterRes) {
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) };
        }
        // Redis not answering is the server's trouble: a 503 the client may send again, never a 500.
        throw busy();
      }
      charged.push(budget);
    }
    return { allowed: true, retryAfterSeconds: 0 };
  }

  async function refund(budgets: Budget[]): Promise<void> {
    const outcomes = await Promise.allSettled(budgets.map((b) => limiterFor(b.limit).reward(b.key)));
    const failed = outcomes.find((o) => o.status === 'rejected');
    // A try not given back stays spent until its window ends: never worth failing a request that
    // already did its work.
    if (failed) log.warn({ err: failed.reason }, 'a rate-limit try could not be given back (Redis)');
  }

  /** Each counter read (Redis runs commands one at a time: a read sees every increment before it). */
  async function peek(budgets: Budget[]): Promise<Taken> {
    for (const budget of budgets) {
      let res: RateLimiterRes | null;
      try {
        res = await limiterFor(budget.limit).get(budget.key);
      } catch {
        throw busy();
      }
      if (res && res.consumedPoints >= budget.limit.max) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
      }
    }
    return { allowed: true, retryAfterSeconds: 0 };
  }

  return limiterOf({ take, refund, peek }, isFailure);
}
