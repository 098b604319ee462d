import { Id, ProductListQuery } from '@pixel-vault/shared';
import { parseQuery } from '../../lib/querystring.js';

/** A catalogue GET the cache answers, as its route would read it after validation. */
export type CatalogueUrl = { kind: 'list'; query: ProductListQuery } | { kind: 'product'; id: string };

const LIST_PATH = '/api/products';
const PRODUCT_PATH = '/api/products/';

/**
 * What `GET url` asks of the catalogue (path and query as sent), read exactly as the route reads it:
 * the same parser and the same shared schema. Undefined for anything else, and for anything the
 * route would refuse (its 400 is the route's to give): the caller hands those to fastify.
 */
export function catalogueUrl(url: string): CatalogueUrl | undefined {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  if (path === LIST_PATH) {
    if (queryAt < 0) return { kind: 'list', query: {} };
    const parsed = ProductListQuery.safeParse(parseQuery(url.slice(queryAt + 1)));
    return parsed.success ? { kind: 'list', query: parsed.data } : undefined;
  }
  if (queryAt >= 0 || !path.startsWith(PRODUCT_PATH)) return undefined;
  const id = path.slice(PRODUCT_PATH.length);
  return Id.safeParse(id).success ? { kind: 'product', id } : undefined;
}
