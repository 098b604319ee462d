import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.js';

export interface MultipartLimits {
  /** Per file, in bytes. */
  maxFileBytes: number;
  maxFiles: number;
  /** Answered (400) when more files arrive. */
  tooManyFilesMessage: string;
  tooLargeMessage: string;
}

export interface MultipartForm {
  fields: Record<string, string>;
  /** Every file part, whatever its field name, in arrival order. */
  files: Buffer[];
}

const MAX_FIELDS = 20;
/** Long enough for a 5000-character description in 4-byte characters. */
const MAX_FIELD_BYTES = 24_000;

/**
 * Reads a whole multipart/form-data body (requires @fastify/multipart on the route's scope).
 * Every failure is a 4xx AppError: a malformed body can never become a 500.
 */
export async function readMultipart(
  request: FastifyRequest,
  limits: MultipartLimits,
): Promise<MultipartForm> {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  const files: Buffer[] = [];
  try {
    const parts = request.parts({
      limits: {
        fileSize: limits.maxFileBytes,
        // One more than allowed, so the extra file is seen and refused with a readable message.
        files: limits.maxFiles + 1,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        parts: MAX_FIELDS + limits.maxFiles + 1,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (files.length >= limits.maxFiles) {
          part.file.resume();
          throw new AppError(400, limits.tooManyFilesMessage, 'TOO_MANY_FILES');
        }
        files.push(await part.toBuffer());
        continue;
      }
      if (part.valueTruncated) throw new AppError(400, `The field ${part.fieldname} is too long`);
      if (typeof part.value !== 'string') throw new AppError(400, `The field ${part.fieldname} must be text`);
      // PostgreSQL text cannot hold U+0000 (see the JSON parser in app.ts).
      if (part.value.includes('\0')) throw new AppError(400, 'Text must not contain NUL characters');
      if (part.fieldname in fields) throw new AppError(400, `The field ${part.fieldname} is given twice`);
      fields[part.fieldname] = part.value;
    }
  } catch (error) {
    throw toMultipartError(error, limits);
  }
  return { fields: { ...fields }, files };
}

function toMultipartError(error: unknown, limits: MultipartLimits): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError(413, limits.tooLargeMessage, 'FILE_TOO_LARGE');
  if (code === 'FST_FILES_LIMIT') return new AppError(400, limits.tooManyFilesMessage, 'TOO_MANY_FILES');
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return new AppError(400, 'Too many form fields');
  }
  return new AppError(400, 'Malformed multipart body', 'BAD_MULTIPART');
}
