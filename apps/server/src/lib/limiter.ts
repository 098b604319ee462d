import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { queryRows } from '../db/client.js';
import { AppError } from './errors.js';
import { byCodePoint } from './sorting.js';
import type { RateLimit } from './http.js';

/** One budget to spend from: a key (e.g. `login:addr:203.0.113.7`) and its limit. */
export interface Budget {
  key: string;
  limit: RateLimit;
}

export interface Taken {
  allowed: boolean;
  /** When refused: seconds until the fullest budget's window ends. */
  retryAfterSeconds: number;
}

export interface Limiter {
  /**
   * Spends one try from every budget, atomically, and answers whether all of them still had one.
   * Counting and checking are one statement per call, so a burst of concurrent calls can never all
   * see "under the limit": at most `max` of them are allowed, on PGlite and PostgreSQL alike.
   */
  take(budgets: Budget[]): Promise<Taken>;
  /** Gives the try back (the attempt turned out to be legitimate: a right code, a good password). */
  refund(budgets: Budget[]): Promise<void>;
  /**
   * Spends one try from every budget, or throws the 429 `message` when one is used up: for limits
   * that count every attempt (sign-ups, contact messages), not only failures.
   */
  spend(budgets: Budget[], message: string): Promise<void>;
  /**
   * `work` runs only when every budget has a try left (else the 429 `message`, before any work is
   * done); a result `isFailure` calls a failure keeps the try spent, anything else gives it back.
   * Only failures count: a customer who types the right code or password is never slowed down.
   */
  guard<T>(budgets: Budget[], message: string, work: () => Promise<T>): Promise<T>;
}

/** Where the counters live (the database, or Redis: lib/limiter-redis.ts): the two operations. */
export type Counters = Pick<Limiter, 'take' | 'refund'>;

export interface LimiterOptions {
  db: Database;
  clock?: () => Date;
  /** A thrown error that counts as a failed try (the rest are the server's own trouble). */
  isFailure?: (error: unknown) => boolean;
}

const byKey = (budgets: Budget[]) => [...budgets].sort((a, b) => byCodePoint(a.key, b.key));

/** Rows whose window ended are deleted at most this often (they are reset on the next hit anyway). */
const SWEEP_EVERY_MS = 60_000;

/** Every client error counts: a wrong code (404), a wrong password (401). 5xx and 429 do not. */
const clientError = (error: unknown) =>
  error instanceof AppError && error.statusCode >= 400 && error.statusCode < 500 && error.statusCode !== 429;

export const rateLimited = (message: string, retryAfterSeconds?: number) =>
  new AppError(429, message, 'RATE_LIMITED', undefined, retryAfterSeconds);

/**
 * Fixed-window counters in the database (table rate_limit_hits), so every instance on one
 * PostgreSQL shares them and a restart does not reset them.
 */
export function createLimiter({
  db,
  clock = () => new Date(),
  isFailure = clientError,
}: LimiterOptions): Limiter {
  let lastSweep = 0;

  async function sweep(now: Date) {
    if (now.getTime() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now.getTime();
    await db.execute(sql`delete from rate_limit_hits where reset_at <= ${now.toISOString()}::timestamptz`);
  }

  async function take(budgets: Budget[]): Promise<Taken> {
    if (budgets.length === 0) return { allowed: true, retryAfterSeconds: 0 };
    const now = clock();
    const rows = sql.join(
      // The upsert locks its rows in the order of its values: in key order, two calls naming the same
      // keys lock them in the same order and cannot deadlock (PostgreSQL would abort one: a 500).
      byKey(budgets).map(
        (b) => sql`(${b.key}, 1, ${new Date(now.getTime() + b.limit.windowMs).toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    // One statement: the row lock of the upsert orders concurrent callers, each sees the count it made.
    const counted = await queryRows<{ key: string; hits: number; reset_at: string | Date }>(
      db,
      sql`insert into rate_limit_hits (key, hits, reset_at) values ${rows}
          on conflict (key) do update set
            hits = case when rate_limit_hits.reset_at <= ${now.toISOString()}::timestamptz
                        then 1 else rate_limit_hits.hits + 1 end,
            reset_at = case when rate_limit_hits.reset_at <= ${now.toISOString()}::timestamptz
                            then excluded.reset_at else rate_limit_hits.reset_at end
          returning key, hits, reset_at`,
    );
    await sweep(now);
    const rowOf = new Map(counted.map((r) => [r.key, r]));
    const within = budgets.filter((b) => Number(rowOf.get(b.key)?.hits ?? 0) <= b.limit.max);
    if (within.length === budgets.length) return { allowed: true, retryAfterSeconds: 0 };
    // Refused: nothing was tried, so the budgets that still had room get their try back (a flood
    // from one address must not use up the accounts it names).
    await refund(within);
    const resets = budgets
      .filter((b) => !within.includes(b))
      .map((b) => new Date(rowOf.get(b.key)?.reset_at ?? now).getTime());
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((Math.max(...resets) - now.getTime()) / 1000)),
    };
  }

  async function refund(budgets: Budget[]): Promise<void> {
    if (budgets.length === 0) return;
    const keys = sql.join(
      budgets.map((b) => sql`${b.key}`),
      sql`, `,
    );
    // Rows locked in key order first (see take).
    await db.execute(
      sql`update rate_limit_hits set hits = greatest(hits - 1, 0)
          where key in (
            select key from rate_limit_hits where key in (${keys}) order by key for update
          ) and reset_at > ${clock().toISOString()}::timestamptz`,
    );
  }

  return limiterOf({ take, refund }, isFailure);
}

/** The limiter's rules (spend, guard) over counters kept anywhere. */
export function limiterOf(
  { take, refund }: Counters,
  isFailure: (error: unknown) => boolean = clientError,
): Limiter {
  return {
    take,
    refund,
    async spend(budgets, message) {
      const taken = await take(budgets);
      if (!taken.allowed) throw rateLimited(message, taken.retryAfterSeconds);
    },
    async guard(budgets, message, work) {
      const taken = await take(budgets);
      if (!taken.allowed) throw rateLimited(message, taken.retryAfterSeconds);
      let result: Awaited<ReturnType<typeof work>>;
      try {
        result = await work();
      } catch (error) {
        if (!isFailure(error)) await refund(budgets);
        throw error;
      }
      await refund(budgets);
      return result;
    },
  };
}

/** `prefix:addr:<ip>` and, when there is one, `prefix:<who>:<id>`: one budget per address, one per account. */
export function budgetsFor(
  prefix: string,
  limits: { perAddress: RateLimit; perAccount: RateLimit },
  who: { ip: string; account?: string },
): Budget[] {
  const budgets: Budget[] = [{ key: `${prefix}:addr:${who.ip}`, limit: limits.perAddress }];
  if (who.account !== undefined)
    budgets.push({ key: `${prefix}:acct:${who.account}`, limit: limits.perAccount });
  return budgets;
}
