import type { z } from 'zod';
import { errorMessage } from '../../app/api';

/**
 * Checks a form's values with the shared schema the server uses, then sends them. Answers the
 * messages to show: the schema's, or the server's when it refused; none when the change was made.
 */
export async function validateAndSend<S extends z.ZodType>(
  schema: S,
  input: unknown,
  send: (data: z.output<S>) => Promise<unknown>,
): Promise<string[]> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) return parsed.error.issues.map((issue) => issue.message);
  try {
    await send(parsed.data);
    return [];
  } catch (error) {
    return [errorMessage(error)];
  }
}
