import { z } from 'zod';
import { UserInfo } from './users.js';

/**
 * Issue 36: verified e-mail addresses (docs/verified-email.md). A verification link is
 * `{base}/verify-email/{token}`; it works once, for VERIFY_TOKEN_HOURS, and a newer link voids it.
 */
export const VERIFY_TOKEN_HOURS = 24;

/** What a used, expired, unknown or malformed verification token answers (400). */
export const VERIFY_TOKEN_INVALID_MESSAGE =
  'This verification link is invalid or has expired. Please ask for a new one from My Account.';

/** A verification token as mailed: 32 random bytes in base64url (43 characters). Anything else is refused. */
export const VerifyToken = z
  .string({ message: VERIFY_TOKEN_INVALID_MESSAGE })
  .regex(/^[A-Za-z0-9_-]{43}$/, { message: VERIFY_TOKEN_INVALID_MESSAGE });

/** POST /api/users/verify */
export const VerifyEmailBody = z.object({ token: VerifyToken });
export type VerifyEmailBody = z.infer<typeof VerifyEmailBody>;

/** What POST /api/users/verify answers (200): the address now verified, the account's from now on. */
export const VerifyEmailResponse = z.object({ message: z.string(), email: z.string() });
export type VerifyEmailResponse = z.infer<typeof VerifyEmailResponse>;

/** POST /api/users/verify/resend answers a message: the link sent, or the address already verified. */
export const VerifyResendResponse = z.object({
  message: z.string(),
  /** Whether a mail went out (false: already verified, nothing to send). */
  sent: z.boolean(),
});
export type VerifyResendResponse = z.infer<typeof VerifyResendResponse>;

/**
 * PUT /api/users/profile: the spec's user info, and when a new e-mail waits for its link, a message
 * saying so (`pendingEmail` names it; `email` stays the old address until the link is opened).
 */
export const ProfileUpdateAnswer = UserInfo.extend({ message: z.string().optional() });
export type ProfileUpdateAnswer = z.infer<typeof ProfileUpdateAnswer>;
