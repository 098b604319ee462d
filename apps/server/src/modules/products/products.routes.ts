import fastifyMultipart from '@fastify/multipart';
import {
  CreateProductBody,
  IdParams,
  MAX_UPLOAD_IMAGES,
  MessageResponse,
  Product,
  ProductFacets,
  ProductFacetsQuery,
  ProductList,
  ProductListQuery,
  ProductListResponse,
  ProductSuggestQuery,
  ProductSuggestions,
  UpdateProductBody,
} from '@pixel-vault/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../lib/access.js';
import { sendCachedAnswer } from '../../lib/cached-answer.js';
import { AppError } from '../../lib/errors.js';
import type { App } from '../../lib/http.js';
import { type MultipartLimits, readMultipart } from '../../lib/multipart.js';
import type { ProductsService } from './products.service.js';

export interface ProductsRoutesOptions {
  products: ProductsService;
  /** Largest accepted image, per file (UPLOAD_MAX_MB). */
  uploadMaxMb: number;
}

/** Zod failures read like the schema validator's: 400 with the first issue's message. */
function parseFields<T extends z.ZodType>(schema: T, data: unknown): z.infer<T> {
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new AppError(400, parsed.error.issues[0]?.message ?? 'Invalid request');
  return parsed.data;
}

function requireMultipart(request: FastifyRequest): void {
  if (!request.isMultipart()) {
    throw new AppError(415, 'Send the product as multipart/form-data', 'MULTIPART_REQUIRED');
  }
}

/**
 * The two hottest routes of the shop. They send the service's cached answer: JSON serialized once,
 * with its ETag (304 for a client that has it) and its gzip/brotli forms made once, not per request
 * (hence `compress: false`). The shape is guaranteed by the typed DTO mapper (toProductDto); the
 * response schemas only document those bytes for the OpenAPI document (issue 37), nothing is
 * serialized through them. Without `page` or `limit` the list is every product, as an array (spec
 * section 7); with either, the page asked for (docs/decisions/003). A GET has no body to decompress
 * (`decompress: false`): one hook less per request (issue 10).
 *
 * The admin's writes (issue 4) follow, in a scope of their own with multipart parsing.
 */
export async function productsRoutes(app: App, { products, uploadMaxMb }: ProductsRoutesOptions) {
  app.get(
    '/api/products',
    {
      // The response schema documents the cached bytes (issue 37): they are sent as they are.
      schema: {
        summary: 'List products (every product, or one page)',
        querystring: ProductListQuery,
        response: { 200: z.union([ProductList, ProductListResponse]) },
      },
      config: { access: 'public' },
      compress: false,
      decompress: false,
    },
    (request, reply) => sendCachedAnswer(request, reply, products.listAnswer(request.query)),
  );

  // Issue 33: a search's facets and a search box's suggestions, cached and sent the same way.
  app.get(
    '/api/products/facets',
    {
      schema: {
        summary: 'Facet counts of a product search',
        querystring: ProductFacetsQuery,
        response: { 200: ProductFacets },
      },
      config: { access: 'public' },
      compress: false,
      decompress: false,
    },
    (request, reply) => sendCachedAnswer(request, reply, products.facetsAnswer(request.query)),
  );

  app.get(
    '/api/products/suggest',
    {
      schema: {
        summary: 'Search-box suggestions',
        querystring: ProductSuggestQuery,
        response: { 200: ProductSuggestions },
      },
      config: { access: 'public' },
      compress: false,
      decompress: false,
    },
    (request, reply) => sendCachedAnswer(request, reply, products.suggestAnswer(request.query.q)),
  );

  app.get(
    '/api/products/:id',
    {
      schema: {
        summary: 'One product, with its newest reviews',
        params: IdParams,
        response: { 200: Product },
      },
      config: { access: 'public' },
      compress: false,
      decompress: false,
    },
    (request, reply) => sendCachedAnswer(request, reply, products.getAnswer(request.params.id)),
  );

  // The admin's writes, in their own scope: only these routes accept multipart bodies.
  await app.register(async (admin: App) => {
    await admin.register(fastifyMultipart);
    const limits: MultipartLimits = {
      maxFileBytes: Math.floor(uploadMaxMb * 1024 * 1024),
      maxFiles: MAX_UPLOAD_IMAGES,
      tooManyFilesMessage: `At most ${MAX_UPLOAD_IMAGES} images`,
      tooLargeMessage: `Each image must be at most ${uploadMaxMb} MB`,
    };

    admin.post(
      '/api/products/add-new',
      {
        schema: {
          summary: 'Add a product (multipart/form-data, with its images)',
          response: { 201: Product },
          doc: {
            body: {
              mediaTypes: ['multipart/form-data'],
              schema: CreateProductBody,
              files: { productImage: `The images, 1 to ${MAX_UPLOAD_IMAGES} files (any field name)` },
            },
          },
        },
        config: { access: 'admin' },
      },
      async (request, reply) => {
        requireMultipart(request);
        const { fields, files } = await readMultipart(request, limits);
        // The spec's fields, and `options` and `variants` as JSON text fields (issue 31).
        const input = parseFields(CreateProductBody, fields);
        if (files.length === 0) throw new AppError(400, 'At least one image is required', 'IMAGE_REQUIRED');
        return reply.code(201).send(await products.create(requireUser(request), input, files));
      },
    );

    admin.put(
      '/api/products/update/:id',
      // 'user', not 'admin': the spec's checkout sends a customer's stock-only update here (section 4).
      // The service writes nothing for a non-admin and refuses any other field with 403.
      {
        schema: {
          summary: 'Update a product (a customer: the stock-only echo of the spec checkout)',
          params: IdParams,
          response: { 200: Product },
          doc: {
            body: { mediaTypes: ['application/json', 'multipart/form-data'], schema: UpdateProductBody },
            errors: { 403: 'A customer sending anything but stockQuantity (`Admin access only`)' },
          },
        },
        config: { access: 'user' },
      },
      async (request) => {
        let data: unknown = request.body;
        if (request.isMultipart()) {
          const { fields } = await readMultipart(request, {
            ...limits,
            maxFiles: 0,
            tooManyFilesMessage: 'Images cannot be changed here',
          });
          data = fields;
        }
        const input = parseFields(UpdateProductBody, data);
        return products.update(requireUser(request), request.params.id, input);
      },
    );

    admin.delete(
      '/api/products/delete/:id',
      { schema: { params: IdParams, response: { 200: MessageResponse } }, config: { access: 'admin' } },
      async (request) => {
        await products.remove(requireUser(request), request.params.id);
        return { message: 'Product deleted' };
      },
    );
  });
}
