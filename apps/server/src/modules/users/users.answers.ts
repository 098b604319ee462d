import type { PublicUser } from '@pixel-vault/shared';
import type { UserRow } from '../../db/schema/index.js';
import { AppError, notFound } from '../../lib/errors.js';

// What the users module answers and refuses with, shared by the account's calls (users.service) and the
// admin's (users.admin).

export const userNotFound = () => notFound('User not found');
export const emailTaken = () => new AppError(409, 'An account with this email already exists', 'EMAIL_TAKEN');

export function toPublicUser(user: UserRow): PublicUser {
  return {
    _id: user.id,
    name: user.name,
    email: user.email,
    isAdmin: user.isAdmin,
    createdAt: user.createdAt.toISOString(),
    emailVerified: user.emailVerifiedAt !== null,
  };
}
