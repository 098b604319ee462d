/** Every API error body (spec section 7: "Errors are read from the response's message field"). */
export interface ApiErrorBody {
  message: string;
  code?: string;
  /** On 402 `PAYMENT_INCOMPLETE`: what is still to pay, in dollars. */
  amountDue?: number;
}

/** The text that makes the web app log out (spec section 6, including the misspelling it checks). */
export const NOT_AUTHORIZED = 'Not authorized!';
export const NOT_AUTHORIZED_MISSPELLED = 'Not authroized!';

export function isNotAuthorizedMessage(message: unknown): boolean {
  return message === NOT_AUTHORIZED || message === NOT_AUTHORIZED_MISSPELLED;
}
