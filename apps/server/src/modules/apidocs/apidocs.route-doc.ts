import { z } from 'zod';

/**
 * What a route's zod schemas cannot say, declared beside them in its `schema: { doc }` for the OpenAPI
 * document only (issue 37): fastify never reads this key, so it changes no call.
 */
export interface RouteDoc {
  /**
   * A body the handler reads itself (multipart/form-data, or JSON it parses): its fields as zod, and
   * the file fields of a multipart body with what they hold.
   */
  body?: { mediaTypes: readonly string[]; schema: z.ZodObject; files?: Readonly<Record<string, string>> };
  /** An answer that is not JSON (a CSV or .tar.gz download): by status, its media type and meaning. */
  answers?: Readonly<Record<number, { mediaType: string; description: string }>>;
  /** Errors beyond those the route's inputs and access imply (409, 429, 402, 503...), and when. */
  errors?: Readonly<Record<number, string>>;
}

declare module 'fastify' {
  interface FastifySchema {
    /** Documentation only (apidocs.route-doc.ts): never read by fastify. */
    doc?: RouteDoc;
  }
}

type Json = Record<string, unknown>;

const toJson = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;

/** The body the route declares, or, for a multipart scope with none declared, a form of any fields. */
export function documentedBody(doc: RouteDoc | undefined, multipart: boolean): Json | undefined {
  if (!doc?.body) {
    return multipart ? { content: { 'multipart/form-data': { schema: { type: 'object' } } } } : undefined;
  }
  const { mediaTypes, schema, files } = doc.body;
  const fields = toJson(schema, 'input');
  delete fields.$schema;
  const content: Json = {};
  for (const mediaType of mediaTypes) {
    if (mediaType !== 'multipart/form-data' || !files) {
      content[mediaType] = { schema: fields };
      continue;
    }
    const properties = { ...(fields.properties as Json | undefined) };
    for (const [name, description] of Object.entries(files)) {
      properties[name] = {
        type: 'array',
        items: { type: 'string', contentMediaType: 'application/octet-stream' },
        description,
      };
    }
    content[mediaType] = { schema: { ...fields, properties } };
  }
  return { content };
}

/** The declared non-JSON answers, as OpenAPI response objects, for statuses the route has no schema for. */
export function documentedAnswers(doc: RouteDoc | undefined, declared: Readonly<Json>): Record<string, Json> {
  const answers: Record<string, Json> = {};
  for (const [status, { mediaType, description }] of Object.entries(doc?.answers ?? {})) {
    if (declared[status]) continue;
    answers[status] = {
      description,
      content: {
        [mediaType]: {
          schema:
            mediaType === 'application/json'
              ? { type: 'object' }
              : { type: 'string', contentMediaType: mediaType },
        },
      },
    };
  }
  return answers;
}
