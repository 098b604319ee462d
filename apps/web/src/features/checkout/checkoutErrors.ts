/** The server answers 409 `This order has expired...` once an unpaid order's hold ran out (issue 3). */
export function isExpiredOrderError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { status?: unknown; data?: { message?: unknown } };
  return e.status === 409 && typeof e.data?.message === 'string' && /expired/i.test(e.data.message);
}
