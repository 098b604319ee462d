import { STATUS_CODES } from 'node:http';
import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';
import { type ApiErrorBody, MessageResponse } from '@pixel-vault/shared';
import { z } from 'zod';
import type { Access } from '../../lib/access.js';
import { ROUTE_ERRORS } from './apidocs.errors.js';
import { describePaging } from './apidocs.paging.js';
import { type RouteDoc, documentedBody, documentedAnswers } from './apidocs.route-doc.js';

export const API_INFO = {
  title: 'Pixel Vault API',
  version: '1.0.0',
  description:
    'The shop\'s HTTP API, generated from the zod schemas the server validates with. Errors answer `{ "message": "...", "code": "..." }` (`code` on most). Calls marked with a lock need `Authorization: Bearer <token>`, the token POST /api/users/login answers. See docs/api.md.',
};

type Json = Record<string, unknown>;

/** @fastify/swagger's key for a response's description when the response is given as a schema. */
const X_RESPONSE_DESCRIPTION = 'x-response-description';

/**
 * The one error body (ApiErrorBody in packages/shared errors.ts): the shared MessageResponse, and the
 * amount a 402 adds. Referenced by every error answer.
 */
const ErrorBody = MessageResponse.extend({
  message: z.string().describe('For a person: shown as is by the shop.'),
  code: z.string().optional().describe('For a program: NOT_FOUND, OUT_OF_STOCK, RATE_LIMITED, ...'),
  amountDue: z.number().optional().describe('On 402 PAYMENT_INCOMPLETE: what is still to pay, in dollars.'),
}) satisfies z.ZodType<ApiErrorBody>;
const ERROR_REF = { $ref: '#/components/schemas/Error' };

const RETRY = 'try again after the `Retry-After` seconds';
const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input: the message names the first problem',
  401: 'No token, or one refused (`message` is "Not authorized!"; `code` says why: SESSION_EXPIRED, SESSION_ENDED, ACCOUNT_DELETED or NOT_AUTHORIZED)',
  403: 'Not an admin (`ADMIN_ONLY`), or an admin without two-factor sign-in where REQUIRE_ADMIN_2FA is on (`TWO_FACTOR_REQUIRED`)',
  404: 'Nothing with that id (`NOT_FOUND`)',
  409: 'Conflicts with the current state (e.g. a transition that is not allowed, or a duplicate)',
  429: `Too many attempts: ${RETRY}`,
};

function errorAnswer(status: number, text?: string): Json {
  return {
    description:
      text === undefined ? (ERROR_TEXT[status] ?? 'Refused') : status === 429 ? `${text}: ${RETRY}` : text,
    content: { 'application/json': { schema: ERROR_REF } },
    ...(status === 429
      ? { headers: { 'retry-after': { type: 'integer', description: 'Seconds until a try may pass' } } }
      : {}),
  };
}

/** Facts fastify's route options do not carry, noted in onRoute: keyed by the options object. */
const notes = new WeakMap<RouteOptions, { multipart: boolean }>();

export function noteRoute(instance: FastifyInstance, route: RouteOptions): void {
  if (route.url.startsWith('/api/')) {
    notes.set(route, { multipart: instance.hasContentTypeParser('multipart/form-data') });
  }
}

/** /api routes only; the page, /uploads, /sitemap and the reference page's own files are not the API. */
const isDescribed = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/docs');

const tagOf = (url: string) => url.split('/')[2] ?? 'api';

/** `GET /api/orders/:id/pay` -> `getOrdersIdPay`: stable names for generated clients. */
function operationId(method: string, url: string): string {
  const words = url
    .slice('/api/'.length)
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}

const zodTransform = createJsonSchemaTransform({ skipList: [] });

/**
 * Per route (swagger's transform, run once, when the document is first asked for): the zod schemas
 * turned into JSON Schema 2020-12 by fastify-type-provider-zod, and what the route's options say about
 * it: its tag (first path segment after /api), who may call it (bearer security for 'user' and
 * 'admin'), the errors its inputs and access imply, its paging and a body or answer it handles itself.
 */
export const describeRoute: SwaggerTransform = (input) => {
  const { url, route } = input;
  if (!isDescribed(url)) return { schema: { hide: true } as FastifySchema, url };
  const { doc, ...own } = (input.schema ?? {}) as FastifySchema & { doc?: RouteDoc };
  const out = zodTransform({ ...input, schema: own }).schema as Json;
  const method = typeof route.method === 'string' ? route.method : undefined;
  const access: Access = route.config?.access ?? 'public';
  const multipart = notes.get(route)?.multipart ?? false;

  out.tags ??= [tagOf(url)];
  if (method && !out.operationId) out.operationId = operationId(method, url);
  if (access === 'user' || access === 'admin') out.security = [{ bearerAuth: [] }];
  if (access === 'visitor-or-user') out.security = [{}, { bearerAuth: [] }];

  const paging = describePaging(own.querystring, out.querystring as Json | undefined);
  if (paging) out.description = [out.description, paging].filter(Boolean).join('\n\n');

  const body = documentedBody(doc, multipart);
  if (body && !out.body) out.body = body;

  const responses: Record<string, Json> = { ...(out.response as Record<string, Json> | undefined) };
  // A zod answer is a JSON Schema here; its response's description is the status's name.
  for (const [status, schema] of Object.entries(responses)) {
    if (!('content' in schema)) schema[X_RESPONSE_DESCRIPTION] ??= STATUS_CODES[status] ?? 'Answer';
  }
  Object.assign(responses, documentedAnswers(doc, responses));
  // A route that declares no answer at all (none should: a test checks) still answers something.
  if (!Object.keys(responses).some((status) => status.startsWith('2'))) {
    responses[200] = { description: 'Success (not described)' };
  }
  const hasInput =
    Boolean(out.body ?? out.querystring ?? out.params) || method === 'POST' || method === 'PUT';
  const implied: number[] = [];
  if (hasInput) implied.push(400);
  if (access !== 'public') implied.push(401);
  if (access === 'admin') implied.push(403);
  if (url.includes('/:')) implied.push(404);
  for (const status of implied) responses[status] ??= errorAnswer(status);
  const declared = { ...(method ? ROUTE_ERRORS[`${method} ${url}`] : undefined), ...doc?.errors };
  for (const [status, text] of Object.entries(declared)) {
    responses[status] = errorAnswer(Number(status), text);
  }
  out.response = responses;
  return { schema: out as FastifySchema, url };
};

/** The whole document, once: the shared error schema and the tags in path order. */
export const finishDocument: SwaggerTransformObject = (input) => {
  const document = (input as { openapiObject: Json }).openapiObject;
  const components = (document.components ?? {}) as Json;
  const { $schema: _dialect, ...error } = z.toJSONSchema(ErrorBody, { target: 'draft-2020-12' });
  components.schemas = { ...(components.schemas as Json | undefined), Error: error };
  document.components = components;
  const tags = new Set<string>();
  for (const path of Object.keys((document.paths ?? {}) as Json)) tags.add(tagOf(path));
  document.tags = [...tags].map((name) => ({ name }));
  dropSafeIntegerBounds(document.paths);
  return document;
};

/**
 * zod writes every `.int()` as bounded by Number.MAX_SAFE_INTEGER: true, and noise to a reader and a
 * client generator. Dropped from the finished document (once, when it is made).
 */
function dropSafeIntegerBounds(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) dropSafeIntegerBounds(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Json;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
  for (const value of Object.values(schema)) dropSafeIntegerBounds(value);
}
