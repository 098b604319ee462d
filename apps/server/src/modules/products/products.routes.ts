import { IdParams, ProductListQuery } from '@pixel-vault/shared';
import type { App } from '../../lib/http.js';
import type { ProductsService } from './products.service.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The two hottest routes of the shop. They send the service's cached JSON string: with a JSON
 * content type fastify passes a string through untouched, so nothing is serialized per request.
 * The shape is guaranteed by the typed DTO mapper (toProductDto) instead of a response schema.
 */
export async function productsRoutes(app: App, { products }: { products: ProductsService }) {
  app.get(
    '/api/products',
    { schema: { querystring: ProductListQuery }, config: { access: 'public' } },
    async (request, reply) => reply.type(JSON_TYPE).send(await products.listJson(request.query)),
  );

  app.get(
    '/api/products/:id',
    { schema: { params: IdParams }, config: { access: 'public' } },
    async (request, reply) => reply.type(JSON_TYPE).send(await products.getJson(request.params.id)),
  );
}
