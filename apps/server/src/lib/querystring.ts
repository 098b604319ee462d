import { parse as parseQueryString } from 'node:querystring';

/**
 * The app's querystring parser (fastify's `querystringParser`, app.ts), and the fast path's reading of
 * a catalogue URL (products.lookup.ts), so both read a query alike: node's parsing, minus %00
 * (PostgreSQL text cannot hold U+0000; see the JSON parser in app.ts).
 */
export function parseQuery(query: string): Record<string, unknown> {
  return parseQueryString(query.includes('%00') ? query.replaceAll('%00', '') : query);
}
