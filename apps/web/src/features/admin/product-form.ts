import type { z } from 'zod';
import { variantProblems, type VariantsDraft } from './variant-draft';

/** A product form's problems: those of its options and variants, shown beside their editor, and the rest. */
export interface ProductFormProblems {
  form: string[];
  variants: string[];
}

export const NO_PROBLEMS: ProductFormProblems = { form: [], variants: [] };

const aboutVariants = (issue: z.core.$ZodIssue) =>
  issue.path[0] === 'options' || issue.path[0] === 'variants';

/**
 * Checks Add Product's or Update Product's input with the shared body schema the server uses, and the
 * options and variants on their own (`variantProblems`: every row's field rules and `variantsProblem`,
 * each message naming its variant, which the body schema's first failure would hide).
 */
export function checkProductForm<S extends z.ZodType>(
  schema: S,
  input: Record<string, unknown>,
  draft: VariantsDraft,
): { data: z.output<S>; problems: null } | { data: null; problems: ProductFormProblems } {
  const variants = variantProblems(draft);
  const parsed = schema.safeParse(input);
  if (parsed.success && variants.length === 0) return { data: parsed.data, problems: null };
  const issues = parsed.success ? [] : parsed.error.issues;
  const form = issues
    .filter((issue) => !aboutVariants(issue))
    .map((issue) => issue.message)
    .filter((message) => !variants.includes(message));
  // A refusal about options or variants that variantProblems did not name still blocks, said beside them.
  if (form.length === 0 && variants.length === 0) variants.push(...issues.map((issue) => issue.message));
  return { data: null, problems: { form: [...new Set(form)], variants: [...new Set(variants)] } };
}

/** Add Product's multipart body: the checked fields (options and variants as JSON text) and the images. */
export function productFormData(data: Record<string, unknown>, images: readonly { file: File }[]): FormData {
  const body = new FormData();
  for (const item of images) body.append('images', item.file, item.file.name);
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    body.append(key, typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));
  }
  return body;
}
