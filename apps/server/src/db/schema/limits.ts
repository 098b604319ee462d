import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Fixed-window counters for every limit that must hold across requests and instances: wrong
 * gift-card codes, logins (issue 9). One row per key; a single upsert counts and answers the new
 * count, so concurrent requests can never all read "under the limit" (lib/limiter.ts).
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_hits_reset_idx').on(t.resetAt)],
);
