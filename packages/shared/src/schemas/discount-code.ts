import { z } from 'zod';

/**
 * A discount code (issue 32): 3 to 32 of A-Z, 0-9, `-` and `_`, compared regardless of case (kept
 * upper-case). Apart from promotions.ts so the order's body can take one without a cycle.
 */
export const DiscountCode = z
  .string({ message: 'A discount code is required' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9_-]{3,32}$/, { message: 'A discount code is 3 to 32 letters, digits, - or _' });

/** An order's optional code (POST /api/orders `discountCode`): `""` and `null` mean "no code". */
export const OptionalDiscountCode = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  DiscountCode.optional(),
);
