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

/**
 * The `code` beside a 401 'Not authorized!' when a token the shop signed is refused (issue 30), so the
 * app can say why on the login page: it ran out, the session was ended (a password or e-mail change,
 * an admin changed the account's role or e-mail), or an admin deleted the account. Any other refusal
 * (no token, a forged one) answers the code NOT_AUTHORIZED. The message stays the spec's: it logs out.
 */
export const SESSION_END_CODES = ['SESSION_EXPIRED', 'SESSION_ENDED', 'ACCOUNT_DELETED'] as const;
export type SessionEndCode = (typeof SESSION_END_CODES)[number];

export function isSessionEndCode(code: unknown): code is SessionEndCode {
  return (SESSION_END_CODES as readonly unknown[]).includes(code);
}
