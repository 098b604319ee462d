import { AppError, notFound } from '../../lib/errors.js';

export const paymentNotFound = () => notFound('Payment not found');
export const amountMismatch = () =>
  new AppError(409, 'Payment amount does not match the order', 'PAYMENT_AMOUNT_MISMATCH');
export const paymentUsedElsewhere = () =>
  new AppError(409, 'This PayPal payment was already used for another order', 'PAYMENT_USED');
