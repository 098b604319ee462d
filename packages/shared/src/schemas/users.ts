import { z } from 'zod';

export const PASSWORD_MIN = 8;
/** Bounded so a 1 MB password cannot be used to burn hashing CPU. */
export const PASSWORD_MAX = 128;

export const Email = z
  .string({ message: 'Email is required' })
  .trim()
  .min(1, { message: 'Email is required' })
  .max(254, { message: 'Email is too long' })
  .pipe(z.email({ message: 'Please enter a valid email address' }))
  .transform((e) => e.toLowerCase());

export const Name = z
  .string({ message: 'Name is required' })
  .trim()
  .min(1, { message: 'Name is required' })
  .max(100, { message: 'Name is at most 100 characters' });

export const NewPassword = z
  .string({ message: 'Password is required' })
  .min(PASSWORD_MIN, { message: `Password must be at least ${PASSWORD_MIN} characters` })
  .max(PASSWORD_MAX, { message: `Password must be at most ${PASSWORD_MAX} characters` });

/** POST /api/users. Unknown fields (isAdmin, ...) are stripped, never trusted. */
export const RegisterBody = z.object({ name: Name, email: Email, password: NewPassword });
export type RegisterBody = z.infer<typeof RegisterBody>;

/** POST /api/users/login */
export const LoginBody = z.object({
  email: Email,
  password: z
    .string({ message: 'Password is required' })
    .min(1, { message: 'Password is required' })
    .max(PASSWORD_MAX, { message: 'Invalid email or password' }),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const PublicUser = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  createdAt: z.string(),
  /** Issue 36: whether the owner opened a verification link for `email` (an added field). */
  emailVerified: z.boolean(),
  /** Issue 36: a new address asked for on My Account, waiting for its link to be opened. */
  pendingEmail: z.string().optional(),
});
export type PublicUser = z.infer<typeof PublicUser>;

/** What login and registration answer; the web app stores it as userInfo (spec section 3). */
export const UserInfo = PublicUser.extend({ token: z.string() });
export type UserInfo = z.infer<typeof UserInfo>;

// --- Password reset and profile (issue 11) -------------------------------------------------------------

/** What POST /api/users/password/forgot always answers (202), whether or not the e-mail has an account. */
export const FORGOT_PASSWORD_MESSAGE =
  'If an account exists for that email, we have sent a link to reset its password. It is valid for a limited time.';
/** What a used, expired, unknown or malformed reset token answers (400). */
export const RESET_TOKEN_INVALID_MESSAGE =
  'This password reset link is invalid or has expired. Please ask for a new one.';
/** Minutes a reset link stays valid unless RESET_TOKEN_MINUTES says otherwise. */
export const RESET_TOKEN_MINUTES_DEFAULT = 30;

/** POST /api/users/password/forgot */
export const ForgotPasswordBody = z.object({ email: Email });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;

/** A reset token as mailed: 32 random bytes in base64url (43 characters). Anything else is refused. */
export const ResetToken = z
  .string({ message: RESET_TOKEN_INVALID_MESSAGE })
  .regex(/^[A-Za-z0-9_-]{43}$/, { message: RESET_TOKEN_INVALID_MESSAGE });

/** POST /api/users/password/reset */
export const ResetPasswordBody = z.object({ token: ResetToken, password: NewPassword });
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

/**
 * PUT /api/users/profile. Every field optional, at least one sent; changing the e-mail or the password
 * needs the current password. Unknown fields (isAdmin, ...) are stripped, never trusted.
 */
export const UpdateProfileBody = z
  .object({
    name: Name.optional(),
    email: Email.optional(),
    currentPassword: z
      .string({ message: 'Current password is required' })
      .max(PASSWORD_MAX, { message: 'Current password is incorrect' })
      .optional(),
    newPassword: NewPassword.optional(),
  })
  .refine((b) => b.name !== undefined || b.email !== undefined || b.newPassword !== undefined, {
    message: 'Nothing to change',
  })
  .refine(
    (b) => (b.email === undefined && b.newPassword === undefined) || (b.currentPassword ?? '').length > 0,
    {
      message: 'Please enter your current password to change your email or password',
      path: ['currentPassword'],
    },
  );
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;
