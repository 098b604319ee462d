import { z } from 'zod';
import { Id } from './common.js';
import { PASSWORD_MAX } from './users.js';

/**
 * Issue 36: two-factor sign-in with a time-based code (TOTP, RFC 6238: 6 digits, 30 s, SHA-1, as every
 * authenticator app reads an `otpauth://` URI) and one-time recovery codes (docs/two-factor.md).
 */

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** How many recovery codes a set holds; each works once. */
export const RECOVERY_CODE_COUNT = 10;
/** How long a login challenge lives, and how many wrong codes it takes. */
export const TWO_FACTOR_CHALLENGE_MINUTES = 5;
export const TWO_FACTOR_CHALLENGE_ATTEMPTS = 5;

/** A code as typed: 6 digits (spaces allowed, as apps show "123 456"), or a recovery code. */
export const TotpCode = z
  .string({ message: 'Enter the code from your authenticator app' })
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, { message: 'The code is 6 digits' }));

/** A recovery code as shown: `xxxxx-xxxxx` (10 characters from a-z and 2-9), case and dashes aside. */
export const RecoveryCode = z
  .string({ message: 'Enter a recovery code' })
  .transform((v) => v.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z2-9]{10}$/, { message: 'A recovery code is 10 letters and digits' }));

/** Either: 6 digits is a TOTP code, anything else is tried as a recovery code. */
export const SecondFactorCode = z
  .string({ message: 'Enter the code from your authenticator app, or a recovery code' })
  .trim()
  .min(1, { message: 'Enter the code from your authenticator app, or a recovery code' })
  .max(40, { message: 'That code is too long' });

const CurrentPassword = z
  .string({ message: 'Current password is required' })
  .min(1, { message: 'Current password is required' })
  .max(PASSWORD_MAX, { message: 'Current password is incorrect' });

/** POST /api/users/2fa/setup (logged in) -> a new secret, not active until enabled. */
export const TwoFactorSetup = z.object({
  /** Base32, shown as text for apps that cannot scan. */
  secret: z.string(),
  /** `otpauth://totp/Pixel%20Vault:<email>?secret=…&issuer=Pixel%20Vault`, drawn as a QR code. */
  otpauthUrl: z.string(),
});
export type TwoFactorSetup = z.infer<typeof TwoFactorSetup>;

/** POST /api/users/2fa/enable { code }: the first code from the app proves it was set up. */
export const EnableTwoFactorBody = z.object({ code: TotpCode });
export type EnableTwoFactorBody = z.infer<typeof EnableTwoFactorBody>;

/** The recovery codes, shown once (enable, a new set); stored only hashed. */
export const RecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodes>;

/** POST /api/users/2fa/disable and /api/users/2fa/recovery-codes: the password and a current code. */
export const TwoFactorConfirmBody = z.object({ password: CurrentPassword, code: SecondFactorCode });
export type TwoFactorConfirmBody = z.infer<typeof TwoFactorConfirmBody>;

/** GET /api/users/2fa -> whether it is on, and how many recovery codes are left. */
export const TwoFactorStatus = z.object({
  enabled: z.boolean(),
  recoveryCodesLeft: z.number(),
  /** REQUIRE_ADMIN_2FA is on and this admin has not enabled it yet: admin routes answer 403. */
  required: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

/**
 * POST /api/users/login for an account with 2FA answers this (200) instead of the user info: no
 * token, nothing usable. The client asks for a code and sends it with the challenge.
 */
export const TwoFactorChallenge = z.object({
  twoFactorRequired: z.literal(true),
  challenge: z.string(),
});
export type TwoFactorChallenge = z.infer<typeof TwoFactorChallenge>;

/** POST /api/users/login/2fa { challenge, code } -> the spec's user info (as login answers it). */
export const LoginTwoFactorBody = z.object({
  challenge: z.string({ message: 'Please log in again' }).min(1).max(200),
  code: SecondFactorCode,
});
export type LoginTwoFactorBody = z.infer<typeof LoginTwoFactorBody>;

/** What an admin route answers (403) while REQUIRE_ADMIN_2FA is on and the admin has not enabled it. */
export const ADMIN_TWO_FACTOR_REQUIRED_MESSAGE =
  'Two-factor sign-in is required for admins. Turn it on in My Account, then try again.';

/** POST /api/users/admin/user/{id}/2fa/reset (admin): turns another user's 2FA off (audited, mailed). */
export const AdminResetTwoFactorParams = z.object({ id: Id });
