import type { z } from 'zod';

type Json = Record<string, unknown>;

interface Paging {
  /** Without page and limit the whole list (an array) is answered (docs/decisions/003). */
  optional: boolean;
  defaultLimit: number | undefined;
  maxLimit: number | undefined;
}

/**
 * A query with `page` and `limit` (packages/shared pagingQuery, optionalPagingQuery). Their limits live
 * in zod transforms JSON Schema cannot show (a larger limit is lowered, not refused), so they are read
 * by asking the schema itself: what a huge limit becomes, and what an absent one does.
 */
function pagingOf(querystring: unknown): Paging | undefined {
  const shape = (querystring as Partial<z.ZodObject> | undefined)?.shape;
  const page = shape?.page as z.ZodType | undefined;
  const limit = shape?.limit as z.ZodType | undefined;
  if (!page || !limit) return undefined;
  const number = (result: { success: boolean; data?: unknown }) =>
    result.success && typeof result.data === 'number' ? result.data : undefined;
  const maxLimit = number(limit.safeParse(String(Number.MAX_SAFE_INTEGER)));
  return {
    optional: page.safeParse(undefined).data === undefined,
    defaultLimit: number(limit.safeParse(undefined)),
    maxLimit: maxLimit === Number.MAX_SAFE_INTEGER ? undefined : maxLimit,
  };
}

/**
 * Describes a paged route: its page and limit parameters (on the querystring's JSON Schema, from which
 * the parameters are made) and a paragraph for the operation. Undefined for a route without paging.
 */
export function describePaging(querystring: unknown, json: Json | undefined): string | undefined {
  const paging = pagingOf(querystring);
  const properties = json?.properties as Record<string, Json> | undefined;
  if (!paging || !properties?.page || !properties.limit) return undefined;
  const { optional, defaultLimit, maxLimit } = paging;
  properties.page = {
    ...properties.page,
    description: `Page number, from 1${optional ? '' : ' (default 1)'}.`,
  };
  const limits = [
    defaultLimit === undefined ? undefined : `default ${defaultLimit}`,
    maxLimit === undefined ? undefined : `at most ${maxLimit}: a larger limit is lowered to it, not refused`,
  ].filter(Boolean);
  properties.limit = {
    ...properties.limit,
    description: `Items per page${limits.length > 0 ? ` (${limits.join('; ')})` : ''}.`,
  };
  return optional
    ? 'Paged on request: without `page` and `limit` the answer is the whole list, as an array; with either, it is one page in an object holding the items, `page`, `totalPage` and `total`.'
    : 'Paged: the answer is the page asked for (`page`, `limit`), with the totals beside the items.';
}
