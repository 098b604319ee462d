import { formatCents, toDollars } from '@pixel-vault/shared';
import { AppError, notFound } from '../../lib/errors.js';

export const orderNotFound = () => notFound('Order not found');
export const orderAlreadyPaid = () => new AppError(409, 'This order is already paid', 'ORDER_PAID');
export const nothingDue = () => new AppError(409, 'Nothing is left to pay on this order', 'NOTHING_DUE');
/** 402 with what is still to pay: the order stays open, and what was paid so far stays on it. */
export const paymentIncomplete = (dueCents: number) =>
  new AppError(402, `Payment is not complete: ${formatCents(dueCents)} still due`, 'PAYMENT_INCOMPLETE', {
    amountDue: toDollars(dueCents),
  });
