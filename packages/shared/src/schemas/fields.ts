import { z } from 'zod';
import { Dollars } from './common.js';

// Field rules shared by the admin's product forms (spec section 5) and the variants (issue 31). Product
// fields arrive as multipart form fields (strings) or JSON, so numbers are coerced.

/**
 * A required number from a multipart text field or JSON, then checked by `rule`. An empty field is
 * missing, never 0 (which `z.coerce.number('')` would make it).
 */
export const number = (label: string, rule: z.ZodType<number, number>) =>
  z
    .unknown()
    .transform((value, ctx) => {
      const raw = typeof value === 'string' ? value.trim() : value;
      if (raw === undefined || raw === null || raw === '') {
        ctx.addIssue({ code: 'custom', message: `${label} is required` });
        return z.NEVER;
      }
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : Number.NaN;
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a number` });
        return z.NEVER;
      }
      return n;
    })
    .pipe(rule);

export const money = (label: string) =>
  number(
    label,
    Dollars.refine((v) => v >= 0, { message: `${label} must be 0 or more` }).refine((v) => v <= 1_000_000, {
      message: `${label} is at most 1000000`,
    }),
  );
export const count = (label: string) =>
  number(
    label,
    z
      .number()
      .int({ message: `${label} must be a whole number` })
      .min(0, { message: `${label} must be 0 or more` })
      .max(1_000_000, { message: `${label} is at most 1000000` }),
  );
export const text = (label: string, max: number) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, { message: `${label} is required` })
    .max(max, { message: `${label} is at most ${max} characters` });

/**
 * A value sent as JSON text in a multipart field (or as JSON already), then checked by `schema`.
 */
export const jsonField = <T extends z.ZodType>(label: string, schema: T) =>
  z
    .unknown()
    .transform((value, ctx) => {
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: `${label} must be JSON` });
        return z.NEVER;
      }
    })
    .pipe(schema);
