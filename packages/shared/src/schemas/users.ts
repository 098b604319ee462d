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
});
export type PublicUser = z.infer<typeof PublicUser>;

/** What login and registration answer; the web app stores it as userInfo (spec section 3). */
export const UserInfo = PublicUser.extend({ token: z.string() });
export type UserInfo = z.infer<typeof UserInfo>;
