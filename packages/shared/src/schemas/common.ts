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

const pageNumber = z.coerce
  .number({ message: 'page must be a number' })
  .int({ message: 'page must be a whole number' })
  .min(1, { message: 'page must be at least 1' });

const pageLimit = (maxLimit: number) =>
  z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be at least 1' })
    .transform((n) => Math.min(n, maxLimit));

/** Paging as query strings: page >= 1; a limit above the maximum is clamped, not refused (issue 2). */
export function pagingQuery(defaultLimit: number, maxLimit: number) {
  return { page: pageNumber.default(1), limit: pageLimit(maxLimit).default(defaultLimit) };
}

/**
 * Paging the caller may ask for. The spec's lists (section 7) are plain arrays of every item; a
 * caller that sends `page` or `limit` gets that page in an envelope instead (docs/decisions/003).
 */
export function optionalPagingQuery(maxLimit: number) {
  return { page: pageNumber.optional(), limit: pageLimit(maxLimit).optional() };
}

export interface PageRequest {
  page: number;
  limit: number;
}

/** The page asked for, with defaults filled in; null = no paging asked for: the whole list. */
export function requestedPage(
  query: { page?: number | undefined; limit?: number | undefined },
  defaultLimit: number,
): PageRequest | null {
  if (query.page === undefined && query.limit === undefined) return null;
  return { page: query.page ?? 1, limit: query.limit ?? defaultLimit };
}
