import type { z } from 'zod';
import { errorMessage } from '../../app/api';

/** Why the server refused a change: its message, and its code when it gave one (`SKU_TAKEN`). */
export interface Refusal {
  message: string;
  code?: string;
}

/** Sends a change; answers the server's refusal, or null when the change was made. */
export async function sendOrRefusal(send: () => Promise<unknown>): Promise<Refusal | null> {
  try {
    await send();
    return null;
  } catch (error) {
    const code = (error as { data?: { code?: unknown } } | null)?.data?.code;
    return { message: errorMessage(error), ...(typeof code === 'string' ? { code } : {}) };
  }
}

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
  const refusal = await sendOrRefusal(() => send(parsed.data));
  return refusal ? [refusal.message] : [];
}
