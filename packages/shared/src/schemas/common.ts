import { z } from 'zod';

/** Ids are UUIDs, exposed as `_id` (ARCHITECTURE.md). A malformed id is a 400, not a 404. */
export const Id = z.uuid({ message: 'Invalid id' });
export type Id = z.infer<typeof Id>;

export const IdParams = z.object({ id: Id });
export type IdParams = z.infer<typeof IdParams>;

export const MessageResponse = z.object({ message: z.string(), code: z.string().optional() });
export type MessageResponse = z.infer<typeof MessageResponse>;

/** A dollar amount with at most two decimals, as the spec's JSON speaks (e.g. 19.99). */
export const Dollars = z
  .number({ message: 'Must be a number' })
  .finite()
  .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, { message: 'At most two decimals' });

/** Paging as query strings: page >= 1; a limit above the maximum is clamped, not refused (issue 2). */
export function pagingQuery(defaultLimit: number, maxLimit: number) {
  return {
    page: z.coerce
      .number({ message: 'page must be a number' })
      .int({ message: 'page must be a whole number' })
      .min(1, { message: 'page must be at least 1' })
      .default(1),
    limit: z.coerce
      .number({ message: 'limit must be a number' })
      .int({ message: 'limit must be a whole number' })
      .min(1, { message: 'limit must be at least 1' })
      .default(defaultLimit)
      .transform((n) => Math.min(n, maxLimit)),
  };
}
