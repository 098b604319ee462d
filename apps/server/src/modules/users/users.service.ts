import { eq } from 'drizzle-orm';
import type { LoginBody, RegisterBody, UserInfo } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { type UserRow, users } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import type { AuthService } from '../auth/auth.service.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';

export interface UsersService {
  register(input: RegisterBody): Promise<UserInfo>;
  login(input: LoginBody): Promise<UserInfo>;
}

export function createUsersService({ db, auth }: { db: Database; auth: AuthService }): UsersService {
  async function toUserInfo(user: UserRow): Promise<UserInfo> {
    return {
      _id: user.id,
      name: user.name,
      email: user.email,
      isAdmin: user.isAdmin,
      token: await auth.signToken(user),
      createdAt: user.createdAt.toISOString(),
    };
  }

  return {
    async register({ name, email, password }) {
      const passwordHash = await hashPassword(password);
      // The unique index decides, not a prior lookup: two simultaneous sign-ups cannot both win.
      const [created] = await db
        .insert(users)
        .values({ name, email, passwordHash })
        .onConflictDoNothing({ target: users.email })
        .returning();
      if (!created) throw new AppError(409, 'An account with this email already exists', 'EMAIL_TAKEN');
      return toUserInfo(created);
    },

    async login({ email, password }) {
      const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      const ok = await verifyPassword(user?.passwordHash, password);
      if (!user || !ok) throw new AppError(401, 'Invalid email or password', 'INVALID_CREDENTIALS');
      return toUserInfo(user);
    },
  };
}
