import { AppError } from '../../lib/errors.js';

export const refundInProgress = () =>
  new AppError(
    409,
    'A refund for this order is already in progress. Please try again in a minute.',
    'REFUND_IN_PROGRESS',
  );
export const refundPending = () =>
  new AppError(
    502,
    'PayPal did not answer. The refund is recorded and will be completed automatically; nothing more is needed.',
    'REFUND_PENDING',
  );
export const refundDeclined = (reason: string) =>
  new AppError(502, `PayPal refused the refund: ${reason}`, 'REFUND_DECLINED');
