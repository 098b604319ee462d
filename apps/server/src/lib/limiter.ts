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
   * Spends one try from each budget in turn, in the order given (most specific first: the account,
   * then the address), and answers whether all of them had one. A budget that refuses keeps the try
   * (it is used up anyway); the budgets after it are not charged at all, and those before it get
   * theirs back: a guesser an account refuses does not use up the address it shares with others
   * (issue 28). Counting and checking a budget is one statement, so a burst of concurrent calls can
   * never all see "under the limit": at most `max` of them are allowed, on every store.
   */
  take(budgets: Budget[]): Promise<Taken>;
  /** Gives the try back (the attempt turned out to be legitimate: a right code, a good password). */
  refund(budgets: Budget[]): Promise<void>;
  /**
   * Whether every budget still has a try left, spending none: for a caller that already knows the
   * attempt is legitimate (a discount code it found before, issue 32) but must still be refused
   * once a budget is used up, or a guesser could tell a right code (answered) from a wrong one (429).
   * Read after any try being counted on the same key (the database takes the row's lock to read it).
   */
  peek(budgets: Budget[]): Promise<Taken>;
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

/** Where the counters live (the database, or Redis: lib/limiter-redis.ts): their operations. */
export type Counters = Pick<Limiter, 'take' | 'refund' | 'peek'>;

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

  /**
   * Spends one try from each budget in turn, in one statement: each budget's upsert is a CTE that runs
   * only when the one before it was charged and still within its limit (it reads that one's new count),
   * so a budget after a refusing one is never charged. Rows are locked in budget order, the account's
   * before the address's, which is also their keys' order (`acct` < `addr`), as a refund locks them:
   * no deadlock. Answers each budget's new count and window end, or nothing for one not charged.
   */
  async function charge(budgets: Budget[], now: Date) {
    if (budgets.length === 0) return [];
    const at = sql`${now.toISOString()}::timestamptz`;
    const steps = budgets.map((budget, i) => {
      const resetAt = new Date(now.getTime() + budget.limit.windowMs).toISOString();
      const before = budgets[i - 1];
      const gate = before
        ? sql`where (select hits from ${sql.raw(`b${i - 1}`)}) <= ${before.limit.max}`
        : sql``;
      return sql`${sql.raw(`b${i}`)} as (
        insert into rate_limit_hits (key, hits, reset_at)
        select ${budget.key}::text, 1, ${resetAt}::timestamptz ${gate}
        on conflict (key) do update set
          hits = case when rate_limit_hits.reset_at <= ${at} then 1 else rate_limit_hits.hits + 1 end,
          reset_at = case when rate_limit_hits.reset_at <= ${at} then excluded.reset_at else rate_limit_hits.reset_at end
        returning hits, reset_at)`;
    });
    const counts = budgets.map(
      (_, i) =>
        sql`(select hits from ${sql.raw(`b${i}`)}) as ${sql.raw(`h${i}`)}, (select reset_at from ${sql.raw(`b${i}`)}) as ${sql.raw(`r${i}`)}`,
    );
    const [row] = await queryRows<Record<string, number | string | Date | null>>(
      db,
      sql`with ${sql.join(steps, sql`, `)} select ${sql.join(counts, sql`, `)}`,
    );
    return budgets.map((_, i) => {
      const hits = row?.[`h${i}`];
      const resetAt = row?.[`r${i}`];
      return hits === null || hits === undefined
        ? undefined
        : { hits: Number(hits), resetAt: new Date(resetAt ?? now).getTime() };
    });
  }

  async function take(budgets: Budget[]): Promise<Taken> {
    const now = clock();
    // Budgets named in key order (every caller's: `acct` < `addr`) are charged in one statement.
    // Named otherwise, one statement each: one statement locking rows in another order than another
    // caller's would deadlock with it.
    const inKeyOrder = byKey(budgets).every((b, i) => b === budgets[i]);
    const groups = inKeyOrder ? [budgets] : budgets.map((b) => [b]);
    const charged: Budget[] = [];
    for (const group of groups) {
      let counted: Awaited<ReturnType<typeof charge>>;
      try {
        counted = await charge(group, now);
      } catch (error) {
        // The database's trouble, not the caller's: nothing is tried, so nothing stays spent.
        await refund(charged).catch(() => {});
        throw error;
      }
      const refusing = group.findIndex((budget, i) => (counted[i]?.hits ?? 0) > budget.limit.max);
      if (refusing >= 0) {
        // Refused: nothing is tried, so the budgets charged before this one get their try back, and
        // the ones after it are never charged (issue 28: 60 guesses at one account from one address
        // charged the address 40 times, locking out everyone else behind it).
        await refund([...charged, ...group.slice(0, refusing)]);
        await sweep(now);
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((counted[refusing]!.resetAt - now.getTime()) / 1000)),
        };
      }
      charged.push(...group);
    }
    await sweep(now);
    return { allowed: true, retryAfterSeconds: 0 };
  }

  async function refund(budgets: Budget[]): Promise<void> {
    if (budgets.length === 0) return;
    const now = clock().toISOString();
    // An upsert, like take: PostgreSQL finds and locks each row by its key and changes its newest
    // version, whatever committed meanwhile; rows in key order, so two refunds cannot deadlock. A key
    // with no row gets an inert one (no tries, its window already over) that the sweep deletes.
    const rows = sql.join(
      byKey(budgets).map((b) => sql`(${b.key}, 0, ${now}::timestamptz)`),
      sql`, `,
    );
    await db.execute(
      sql`insert into rate_limit_hits (key, hits, reset_at) values ${rows}
          on conflict (key) do update set hits = greatest(rate_limit_hits.hits - 1, 0)
          where rate_limit_hits.reset_at > ${now}::timestamptz`,
    );
  }

  /**
   * Every budget's count in one statement, without spending: an upsert that changes nothing in a
   * window still open (a window that ended starts again at 0), so it takes each row's lock, in key
   * order as take and refund do, and reads the count after any take in flight on it has committed.
   */
  async function peek(budgets: Budget[]): Promise<Taken> {
    if (budgets.length === 0) return { allowed: true, retryAfterSeconds: 0 };
    const now = clock();
    const at = sql`${now.toISOString()}::timestamptz`;
    const ordered = byKey(budgets);
    const rows = sql.join(
      ordered.map(
        (b) => sql`(${b.key}, 0, ${new Date(now.getTime() + b.limit.windowMs).toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    const counted = await queryRows<{ key: string; hits: number | string; reset_at: string | Date }>(
      db,
      sql`insert into rate_limit_hits (key, hits, reset_at) values ${rows}
          on conflict (key) do update set
            hits = case when rate_limit_hits.reset_at <= ${at} then 0 else rate_limit_hits.hits end,
            reset_at = case when rate_limit_hits.reset_at <= ${at} then excluded.reset_at else rate_limit_hits.reset_at end
          returning key, hits, reset_at`,
    );
    const byKeyCount = new Map(counted.map((r) => [r.key, r]));
    for (const budget of budgets) {
      const row = byKeyCount.get(budget.key);
      if (row && Number(row.hits) >= budget.limit.max) {
        const resetAt = new Date(row.reset_at).getTime();
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000)),
        };
      }
    }
    return { allowed: true, retryAfterSeconds: 0 };
  }

  return limiterOf({ take, refund, peek }, isFailure);
}

/** The limiter's rules (spend, guard) over counters kept anywhere. */
export function limiterOf(
  { take, refund, peek }: Counters,
  isFailure: (error: unknown) => boolean = clientError,
): Limiter {
  return {
    take,
    refund,
    peek,
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

/**
 * `prefix:acct:<id>` when there is one, then `prefix:addr:<ip>`: one budget per account, one per
 * address, the account's first so that a try it refuses is never charged to the address (see take).
 */
export function budgetsFor(
  prefix: string,
  limits: { perAddress: RateLimit; perAccount: RateLimit },
  who: { ip: string; account?: string },
): Budget[] {
  const address: Budget = { key: `${prefix}:addr:${who.ip}`, limit: limits.perAddress };
  if (who.account === undefined) return [address];
  return [{ key: `${prefix}:acct:${who.account}`, limit: limits.perAccount }, address];
}
