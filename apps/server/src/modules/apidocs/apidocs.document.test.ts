import { gunzipSync } from 'node:zlib';
import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestContext, createTestContext } from '../../test/context.js';
import type * as DescribeModule from './apidocs.describe.js';
import { ROUTE_ERRORS } from './apidocs.errors.js';

/** Counts how often routes are described: the document must be made on demand, once. */
const described = vi.hoisted(() => ({ calls: 0 }));
vi.mock('./apidocs.describe.js', async (original) => {
  const real = await original<typeof DescribeModule>();
  return {
    ...real,
    describeRoute: (...args: Parameters<typeof real.describeRoute>) => {
      described.calls += 1;
      return real.describeRoute(...args);
    },
  };
});

type Json = Record<string, unknown>;
interface Operation {
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; description?: string }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<
    string,
    { description: string; content?: Record<string, { schema: Json }>; headers?: Record<string, Json> }
  >;
  description?: string;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Json>; schemas: Record<string, Json> };
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];
/** The reference page and its files: the viewer, not the API (hidden from the document). */
const isViewer = (url: string) => url === '/api/docs' || url.startsWith('/api/docs/');
/** Fastify's `/api/orders/:id` is OpenAPI's `/api/orders/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('GET /api/openapi.json', () => {
  let ctx: TestContext;
  let doc: Document;
  let body: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.app.ready();
    // Building (and readying) the app described nothing: the document waits for its first request.
    expect(described.calls).toBe(0);
    const res = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    body = res.body;
    doc = res.json<Document>();
  });
  afterAll(() => ctx.close());

  it('is made once and kept: a second request answers the same bytes without describing again', async () => {
    const calls = described.calls;
    expect(calls).toBeGreaterThan(50);
    const again = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(again.body).toBe(body);
    expect(described.calls).toBe(calls);
    const etag = String(again.headers.etag);
    const unchanged = await ctx.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { 'if-none-match': etag },
    });
    expect(unchanged.statusCode).toBe(304);
    const zipped = await ctx.app.inject({
      method: 'GET',
      url: '/api/openapi.json',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(body);
    // Public, as the API is, with the API's own headers (not the reference page's policy).
    expect(again.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it('is a valid OpenAPI 3.1 document with a bearer (JWT) security scheme', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(result.specification).toBe('OpenAPI');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    expect(doc.components.schemas.Error).toMatchObject({ required: ['message'] });
  });

  it('describes every registered /api route with its method, and nothing else', () => {
    const registered = ctx.app.accessTable.filter(
      (r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && !isViewer(r.url),
    );
    expect(registered.length).toBeGreaterThan(80);
    const missing = registered
      .filter((r) => !doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()])
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);

    const routes = new Set(registered.map((r) => `${r.method} ${openApiPath(r.url)}`));
    const extra: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path.startsWith('/api/'), path).toBe(true);
      for (const method of Object.keys(item).filter((m) => HTTP_METHODS.includes(m))) {
        if (!routes.has(`${method.toUpperCase()} ${path}`)) extra.push(`${method} ${path}`);
      }
    }
    expect(extra).toEqual([]);
    // Page routes, uploads, the sitemap and the viewer's own files are not the API.
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/') || p.startsWith('/api/docs'))).toEqual(
      [],
    );
  });

  it('lists the conflicts and rate limits of routes that exist, in their operations', () => {
    const registered = new Set(ctx.app.accessTable.map((r) => `${r.method} ${r.url}`));
    const stale = Object.keys(ROUTE_ERRORS).filter((route) => !registered.has(route));
    expect(stale).toEqual([]);
    const login = doc.paths['/api/users/login']!.post!;
    expect(login.responses['429']).toMatchObject({ headers: { 'retry-after': expect.any(Object) } });
    expect(doc.paths['/api/orders']!.post!.responses['409']!.description).toMatch(/OUT_OF_STOCK/);
    expect(doc.paths['/api/products/update/{id}']!.put!.responses['403']!.description).toMatch(
      /stockQuantity/,
    );
  });

  it('marks who may call each operation: bearer security, 401 and 403 as the route declares', () => {
    for (const { method, url, access } of ctx.app.accessTable) {
      const op = doc.paths[openApiPath(url)]?.[method.toLowerCase()];
      if (!op) continue;
      const label = `${method} ${url} (${access})`;
      const statuses = Object.keys(op.responses);
      if (access === 'user' || access === 'admin') {
        expect(op.security, label).toEqual([{ bearerAuth: [] }]);
        expect(statuses, label).toContain('401');
      } else if (access === 'visitor-or-user') {
        // Anyone; a caller who sends a token is that user.
        expect(op.security, label).toEqual([{}, { bearerAuth: [] }]);
      } else {
        expect(op.security, label).toBeUndefined();
        expect(statuses, label).not.toContain('401');
      }
      if (access === 'admin') expect(statuses, label).toContain('403');
      expect(op.tags, label).toEqual([url.split('/')[2]]);
    }
  });

  it('describes each answer: a success with its content, errors as the shared { message, code? }', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const label = `${method} ${path}`;
        const successes = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
        expect(successes.length, label).toBeGreaterThan(0);
        for (const [status, response] of successes) {
          expect(response.content, `${label} ${status}`).toBeDefined();
        }
        for (const [status, response] of Object.entries(op.responses)) {
          const schema = response.content?.['application/json']?.schema;
          if (['400', '401', '403', '404', '409', '429'].includes(status)) {
            expect(schema, `${label} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
          }
        }
        if (path.includes('{')) expect(Object.keys(op.responses), label).toContain('404');
        if (op.parameters?.length || op.requestBody)
          expect(Object.keys(op.responses), label).toContain('400');
      }
    }
  });

  it('describes paging where a route pages: page and limit, with the maximum the limit is lowered to', () => {
    const products = doc.paths['/api/products']!.get!;
    const limit = products.parameters!.find((p) => p.name === 'limit' && p.in === 'query');
    expect(limit?.description).toMatch(/at most 100/);
    expect(products.description).toMatch(/without `page` and `limit` the answer is the whole list/);
    const audit = doc.paths['/api/admin/audit']!.get!;
    expect(audit.parameters!.find((p) => p.name === 'limit')?.description).toMatch(/default 50; at most 200/);
    expect(audit.description).toMatch(/^Paged/);
    expect(doc.paths['/api/orders']!.get!.description ?? '').not.toMatch(/Paged/);
  });

  it('describes the routes that take no JSON honestly: multipart bodies, CSV, .tar.gz and text answers', () => {
    const addProduct = doc.paths['/api/products/add-new']!.post!;
    const form = addProduct.requestBody!.content['multipart/form-data'] as { schema: Json };
    expect(Object.keys(form.schema.properties as Json)).toEqual(
      expect.arrayContaining(['productName', 'productPrice', 'productImage']),
    );
    expect(Object.keys(doc.paths['/api/products/update/{id}']!.put!.requestBody!.content).sort()).toEqual([
      'application/json',
      'multipart/form-data',
    ]);
    expect(doc.paths['/api/admin/import/products']!.post!.requestBody!.content).toHaveProperty(
      'multipart/form-data',
    );
    expect(doc.paths['/api/admin/export/orders.csv']!.get!.responses['200']!.content).toHaveProperty(
      'text/csv',
    );
    expect(doc.paths['/api/admin/backup']!.get!.responses['200']!.content).toHaveProperty('application/gzip');
    expect(doc.paths['/api/config/paypal']!.get!.responses['200']!.content).toHaveProperty('text/plain');
  });
});

describe('/api/docs', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('serves the reference page under a policy that runs only its own scripts, and its files load', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/connect-src 'self'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);

    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    const styles = [...page.body.matchAll(/<link rel="stylesheet" type="text\/css" href="([^"]+)"/g)].map(
      (m) => m[1]!,
    );
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<\s]/);
    for (const src of [...scripts, ...styles]) {
      expect(src.startsWith('/api/docs/static/'), src).toBe(true);
      const res = await ctx.app.inject({ method: 'GET', url: src });
      expect(res.statusCode, src).toBe(200);
      expect(res.headers['content-type'], src).toMatch(src.endsWith('.js') ? /javascript/ : /text\/css/);
      // The files keep the API's strict headers; only the page gets the viewer's policy.
      expect(res.headers['content-security-policy'], src).toBe("default-src 'none'; frame-ancestors 'none'");
    }
    // The viewer reads the same document.
    const json = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(json.json()).toEqual((await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json());
  });

  it('leaves every other page and answer with its own policy', async () => {
    const api = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    const page = await ctx.app.inject({ method: 'GET', url: '/no-such-page' });
    expect(String(page.headers['content-security-policy'])).toMatch(/script-src 'self' 'sha256-/);
    expect(String(page.headers['content-security-policy'])).toMatch(/paypal/);
  });
});
