import { z } from 'zod';
import { Dollars, Id } from './common.js';

/** Letters, digits and dashes; compared regardless of case. */
export const GiftCardCode = z
  .string({ message: 'Gift card code is required' })
  .trim()
  .min(1, { message: 'Gift card code is required' })
  .max(64, { message: 'Gift card code is at most 64 characters' })
  .regex(/^[A-Za-z0-9-]+$/, { message: 'Gift card codes are letters, digits and dashes' });

/** POST /api/giftcards/check-balance */
export const CheckBalanceBody = z.object({ code: GiftCardCode });
export type CheckBalanceBody = z.infer<typeof CheckBalanceBody>;

export const BalanceResponse = z.object({ balance: z.number() });
export type BalanceResponse = z.infer<typeof BalanceResponse>;

/**
 * POST /api/giftcards/use: 0 < amount <= min(balance, order remainder). The spec's client sends no
 * `orderId`: the card then goes to the caller's most recent order (docs/decisions/004).
 */
export const UseGiftCardBody = z.object({
  code: GiftCardCode,
  amount: Dollars.refine((v) => v > 0, { message: 'Amount must be greater than 0' }),
  orderId: Id.optional(),
});
export type UseGiftCardBody = z.infer<typeof UseGiftCardBody>;

export const UseGiftCardResponse = z.object({
  /** The order the card was applied to. */
  orderId: z.string(),
  /** The card's balance after this use. */
  balance: z.number(),
  /** The same balance, under the original shop's name for it. */
  updatedBalance: z.number(),
  /** What happened, for a person. */
  message: z.string(),
  /** What this call applied to the order (0 when the same card was already applied to it). */
  applied: z.number(),
  /** The order's remainder after gift cards. */
  amountDue: z.number(),
});
export type UseGiftCardResponse = z.infer<typeof UseGiftCardResponse>;

/**
 * POST /api/giftcards/remove (issue 30, beside the spec's calls): takes the card named by `code` off the
 * unpaid order `orderId`, and the money it holds there goes back to the card.
 */
export const RemoveGiftCardBody = z.object({
  code: GiftCardCode,
  orderId: Id,
});
export type RemoveGiftCardBody = z.infer<typeof RemoveGiftCardBody>;

export const RemoveGiftCardResponse = z.object({
  /** The order the card was taken off. */
  orderId: z.string(),
  /** The card's balance after the removal. */
  balance: z.number(),
  /** What this call gave back to the card (0 when a removal before it already had). */
  released: z.number(),
  /** What is left to pay on the order now. */
  amountDue: z.number(),
  /** What happened, for a person. */
  message: z.string(),
});
export type RemoveGiftCardResponse = z.infer<typeof RemoveGiftCardResponse>;

/** A gift card as admins see it (spec section 3). */
export const GiftCard = z.object({
  _id: z.string(),
  code: z.string(),
  balance: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type GiftCard = z.infer<typeof GiftCard>;

/** POST /api/giftcards/admin/create */
export const CreateGiftCardBody = z.object({
  code: GiftCardCode,
  balance: Dollars.refine((v) => v >= 0, { message: 'Balance must be 0 or more' }).refine(
    (v) => v <= 100_000,
    {
      message: 'Balance is at most 100000',
    },
  ),
});
export type CreateGiftCardBody = z.infer<typeof CreateGiftCardBody>;
