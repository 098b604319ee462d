import { and, eq, ne, sql } from 'drizzle-orm';
import {
  type AdminAddUserBody,
  type AdminUpdateUserBody,
  type AdminUsersQuery,
  type LoginBody,
  type ProfileUpdateAnswer,
  type PublicUser,
  RESET_TOKEN_INVALID_MESSAGE,
  RESET_TOKEN_MINUTES_DEFAULT,
  type RegisterBody,
  type ResetPasswordBody,
  type TwoFactorChallenge,
  type UpdateProfileBody,
  type UserInfo,
} from '@pixel-vault/shared';
import type { Database, Transaction } from '../../db/client.js';
import { type UserRow, users } from '../../db/schema/index.js';
import { type AuthUser, notAuthorized } from '../../lib/access.js';
import { AppError, isUniqueViolation } from '../../lib/errors.js';
import type { AuthService } from '../auth/auth.service.js';
import type { SessionClient, SessionIssuer, SessionStart } from '../sessions/sessions.service.js';
import { recordAudit } from '../audit/audit.repo.js';
import { enqueueMail, enqueueMailToUser } from '../mail/mail.service.js';
import type { Mailer } from '../mail/mail.worker.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import { type ResetRequester, passwordChangedMail, resetLinkMail } from './users.mail.js';
import {
  NO_USER,
  type NewResetToken,
  claimResetToken,
  dropResetTokens,
  hashResetToken,
  isLiveResetToken,
  newResetToken,
  replaceResetToken,
} from './users.reset.js';
import { changeRequestedMessage, issueVerification, pendingEmailOf } from './users.verify.js';
import { emailChangeRequestedMail } from './users.verify.mail.js';
import { type UsersPage, createUsersAdmin } from './users.admin.js';
import { emailTaken, toPublicUser, userNotFound } from './users.answers.js';

export { toPublicUser, userNotFound };

export type { UsersPage } from './users.admin.js';

export interface UsersService {
  /** Issue 36: also mails a verification link to `base`'s page, in the same transaction. */
  register(input: RegisterBody, base: string, client?: SessionClient): Promise<UserInfo>;
  /** `client`: the browser and address that signs in, for the token's session (issue 36). */
  login(input: LoginBody, client?: SessionClient): Promise<UserInfo | TwoFactorChallenge>;
  /** Login's answer for an account whose second factor checked out (modules/twofactor). */
  signIn(user: UserRow, client?: SessionClient): Promise<UserInfo>;
  /** Every matching user, by name (no page asked for, spec section 7), or the page asked for. */
  adminList(query: AdminUsersQuery): Promise<PublicUser[] | UsersPage>;
  adminGet(id: string): Promise<PublicUser>;
  /** Name, e-mail, role; never the password. A role or e-mail change ends the user's sessions. */
  adminUpdate(actor: AuthUser, id: string, body: AdminUpdateUserBody): Promise<PublicUser>;
  /** Deletes the row: orders keep their name/e-mail snapshot, their user_id goes NULL. */
  adminDelete(actor: AuthUser, id: string): Promise<void>;
  adminAdd(actor: AuthUser, body: AdminAddUserBody): Promise<PublicUser>;
  /** Mails the user a reset link (as forgotPassword does); the admin never sees it. Audited. */
  adminSendPasswordReset(actor: AuthUser, id: string, base: string): Promise<void>;
  /**
   * Mails a reset link to `email` when it has an account; does the same database work and answers
   * the same (nothing) when it has not, so the caller cannot tell which (issue 11).
   */
  forgotPassword(email: string, base: string): Promise<void>;
  /**
   * Sets the password with a live token, ends every session, answers a fresh one like login (a
   * challenge, as login, for an account with two-factor sign-in: the mailbox alone does not sign in).
   */
  resetPassword(
    input: ResetPasswordBody,
    base: string,
    client?: SessionClient,
  ): Promise<UserInfo | TwoFactorChallenge>;
  /** The caller's own account. */
  profile(actor: AuthUser): Promise<PublicUser>;
  /**
   * Name, e-mail, password of the caller. A new e-mail or password needs the current password
   * (checked through `guardPassword`) and ends every other session; the answer carries a fresh token.
   */
  updateProfile(
    actor: AuthUser,
    body: UpdateProfileBody,
    options: UpdateProfileOptions,
  ): Promise<ProfileUpdateAnswer>;
}

/**
 * Runs the current-password check under the caller's failed-login budget (the route's limiter): a
 * wrong password counts like a failed login, so this form cannot guess passwords faster than login.
 */
export type PasswordCheckGuard = (email: string, check: () => Promise<void>) => Promise<void>;

export interface UpdateProfileOptions {
  /** Where the shop's pages are (PUBLIC_URL or the request's origin), for the links in notices. */
  base: string;
  guardPassword: PasswordCheckGuard;
  /** The browser and address of the request, for a new session when the caller's token had none. */
  client?: SessionClient;
}

export interface UsersServiceOptions {
  db: Database;
  auth: AuthService;
  /** Every token signed belongs to a session (issue 36), ended with the token version bumps. */
  sessions: SessionIssuer;
  /** Told when a mail was queued. */
  mailer: Mailer;
  /** Tests move time (reset link expiry). */
  clock?: () => Date;
  /** How long a reset link works (RESET_TOKEN_MINUTES). */
  resetTokenMinutes?: number;
  /**
   * Told in an account deletion's transaction, before the row goes, with the account's row locked:
   * other modules close or refuse what the account still has open (trade-ins, issue 35). A throw
   * refuses the deletion.
   */
  onAccountDeleting?: (tx: Transaction, userId: string, now: Date) => Promise<void>;
  /**
   * Issue 36: asked at login once the password checked out: a challenge for an account with 2FA on
   * (no token, no session), null to sign in (modules/twofactor).
   */
  secondFactor?: {
    challengeFor(user: UserRow, tx?: Transaction): Promise<TwoFactorChallenge | null>;
  };
}

const resetTokenInvalid = () => new AppError(400, RESET_TOKEN_INVALID_MESSAGE, 'RESET_TOKEN_INVALID');
const wrongCurrentPassword = () =>
  new AppError(400, 'Current password is incorrect', 'WRONG_CURRENT_PASSWORD');

/** The page a reset link opens, under the shop's base (PUBLIC_URL or the request's own origin). */
export const resetLink = (base: string, token: string) => `${base}/reset-password/${token}`;

export function createUsersService({
  db,
  auth,
  sessions,
  mailer,
  clock = () => new Date(),
  resetTokenMinutes = RESET_TOKEN_MINUTES_DEFAULT,
  onAccountDeleting,
  secondFactor,
}: UsersServiceOptions): UsersService {
  /** The spec's user info with a fresh token, of a new session or the one `start.resume` names. */
  async function toUserInfo(user: UserRow, start: SessionStart = {}): Promise<UserInfo> {
    const sessionId = await sessions.open(user.id, start);
    return {
      _id: user.id,
      name: user.name,
      email: user.email,
      isAdmin: user.isAdmin,
      token: await auth.signToken(user, sessionId),
      createdAt: user.createdAt.toISOString(),
      emailVerified: user.emailVerifiedAt !== null,
    };
  }

  const admin = createUsersAdmin({
    db,
    sessions,
    clock,
    ...(onAccountDeleting ? { onAccountDeleting } : {}),
  });

  /**
   * Makes `user`'s one live reset link (older ones die) and queues its mail, in the caller's
   * transaction. With no user (an unknown e-mail) the very same statements run and write nothing:
   * the answer's timing must not tell whether an account exists.
   */
  async function issueResetLink(
    tx: Transaction,
    user: UserRow | undefined,
    base: string,
    requestedBy: ResetRequester,
  ): Promise<void> {
    const token: NewResetToken = newResetToken();
    const now = clock();
    const expiresAt = new Date(now.getTime() + resetTokenMinutes * 60_000);
    const userId = user?.id ?? NO_USER;
    const mail = resetLinkMail(
      user ?? { name: '', email: '' },
      resetLink(base, token.token),
      resetTokenMinutes,
      requestedBy,
    );
    await replaceResetToken(tx, userId, token, expiresAt, now);
    await enqueueMailToUser(tx, userId, mail);
  }

  return {
    async register({ name, email, password }, base, client) {
      const passwordHash = await hashPassword(password);
      const created = await db.transaction(async (tx) => {
        // The unique index decides, not a prior lookup: two simultaneous sign-ups cannot both win.
        const [row] = await tx
          .insert(users)
          .values({ name, email, passwordHash })
          .onConflictDoNothing({ target: users.email })
          .returning();
        if (!row) throw new AppError(409, 'An account with this email already exists', 'EMAIL_TAKEN');
        // Issue 36: the account works at once; its address is confirmed by the link.
        await issueVerification(tx, row, row.email, base, clock());
        return row;
      });
      mailer.kick();
      return toUserInfo(created, { client });
    },

    async login({ email, password }, client) {
      const [user] = await db.select().from(users).where(eq(users.email, email)).limit(1);
      const ok = await verifyPassword(user?.passwordHash, password);
      if (!user || !ok) throw new AppError(401, 'Invalid email or password', 'INVALID_CREDENTIALS');
      const challenge = await secondFactor?.challengeFor(user);
      return challenge ?? toUserInfo(user, { client });
    },

    signIn: (user, client) => toUserInfo(user, { client }),

    ...admin,

    async adminSendPasswordReset(actor, id, base) {
      await db.transaction(async (tx) => {
        const [user] = await tx.select().from(users).where(eq(users.id, id)).for('update');
        if (!user) throw userNotFound();
        await issueResetLink(tx, user, base, 'admin');
        await recordAudit(tx, {
          actor: actor.id,
          action: 'user.password_reset_link',
          targetType: 'user',
          targetId: id,
          before: null,
          after: { mailedTo: user.email },
        });
      });
      mailer.kick();
    },

    async forgotPassword(email, base) {
      await db.transaction(async (tx) => {
        // A commit that wrote waits for its log flush (milliseconds on a disk), one that wrote nothing
        // does not: that alone would tell a known e-mail from an unknown one. Not waiting here keeps
        // both within noise; a crash right after can lose the link together with its mail (never one
        // without the other), and the customer asks again.
        await tx.execute(sql`set local synchronous_commit = off`);
        // The row lock orders two requests for one account: the later one's link is the live one.
        const [user] = await tx.select().from(users).where(eq(users.email, email)).for('update');
        await issueResetLink(tx, user, base, 'customer');
      });
      // Told either way: not even the worker's wake-up may differ between the two.
      mailer.kick();
    },

    async resetPassword({ token, password }, base, client) {
      const tokenHash = hashResetToken(token);
      // A used, expired or unknown token is refused before the password is hashed: a flood of
      // made-up tokens costs one index read each, no CPU.
      if (!(await isLiveResetToken(db, tokenHash, clock()))) throw resetTokenInvalid();
      const passwordHash = await hashPassword(password);
      const info = await db.transaction(async (tx) => {
        const now = clock();
        const claimed = await claimResetToken(tx, tokenHash, now);
        if (!claimed) throw resetTokenInvalid();
        const [row] = await tx
          .update(users)
          .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: now })
          .where(eq(users.id, claimed.userId))
          .returning();
        if (!row) throw resetTokenInvalid();
        // Any other link still out there (asked for at the same moment) dies with this one.
        await dropResetTokens(tx, row.id, claimed.id);
        await enqueueMail(tx, passwordChangedMail(row, base));
        // Every session ends with the token version (issue 36); the one signing in starts with this commit.
        await sessions.endOthers(tx, row.id);
        const challenge = await secondFactor?.challengeFor(row, tx);
        return challenge ?? toUserInfo(row, { tx, client });
      });
      mailer.kick();
      return info;
    },

    async profile(actor) {
      const [user] = await db.select().from(users).where(eq(users.id, actor.id));
      if (!user) throw notAuthorized('ACCOUNT_DELETED');
      const pendingEmail = await pendingEmailOf(db, user, clock());
      return { ...toPublicUser(user), ...(pendingEmail ? { pendingEmail } : {}) };
    },

    async updateProfile(actor, body, { base, guardPassword, client }) {
      const [user] = await db.select().from(users).where(eq(users.id, actor.id));
      if (!user) throw notAuthorized('ACCOUNT_DELETED');
      const newEmail = body.email !== undefined && body.email !== user.email ? body.email : undefined;
      const newPassword = body.newPassword;
      const endsSessions = newEmail !== undefined || newPassword !== undefined;
      if (endsSessions) {
        await guardPassword(user.email, async () => {
          if (!(await verifyPassword(user.passwordHash, body.currentPassword ?? ''))) {
            throw wrongCurrentPassword();
          }
        });
      }
      const passwordHash = newPassword !== undefined ? await hashPassword(newPassword) : undefined;
      let updated: UserRow;
      try {
        updated = await db.transaction(async (tx) => {
          const [locked] = await tx.select().from(users).where(eq(users.id, actor.id)).for('update');
          // The session ended while this request ran (a reset, an admin's change): it gets no fresh token.
          if (!locked) throw notAuthorized('ACCOUNT_DELETED');
          if (locked.tokenVersion !== actor.tokenVersion) throw notAuthorized('SESSION_ENDED');
          if (newEmail !== undefined) {
            const [taken] = await tx
              .select({ id: users.id })
              .from(users)
              .where(and(eq(users.email, newEmail), ne(users.id, actor.id)));
            if (taken) throw emailTaken();
          }
          const [row] = await tx
            .update(users)
            .set({
              ...(body.name !== undefined ? { name: body.name } : {}),
              // Issue 36: a new e-mail replaces the old one only once its link is opened (users.verify.ts).
              ...(passwordHash !== undefined ? { passwordHash } : {}),
              updatedAt: clock(),
              ...(endsSessions ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
            })
            .where(eq(users.id, actor.id))
            .returning();
          if (!row) throw notAuthorized('ACCOUNT_DELETED');
          if (endsSessions) await dropResetTokens(tx, row.id);
          // The caller's session goes on with the fresh token; the list shows the others ended (issue 36).
          if (endsSessions) await sessions.endOthers(tx, row.id, actor.sessionId);
          if (newEmail !== undefined) {
            await issueVerification(tx, row, newEmail, base, clock());
            // The current address hears of it, unless it was never confirmed (issue 36).
            if (row.emailVerifiedAt !== null) {
              await enqueueMail(tx, emailChangeRequestedMail(row, newEmail, base));
            }
          }
          if (passwordHash !== undefined) await enqueueMail(tx, passwordChangedMail(row, base));
          return row;
        });
      } catch (error) {
        // Two accounts taking the same e-mail at once: the unique index decides.
        if (isUniqueViolation(error)) throw emailTaken();
        throw error;
      }
      if (endsSessions) mailer.kick();
      const info = await toUserInfo(updated, { client, resume: actor.sessionId });
      const pendingEmail = await pendingEmailOf(db, updated, clock());
      if (!pendingEmail) return info;
      return { ...info, pendingEmail, ...(newEmail ? { message: changeRequestedMessage(newEmail) } : {}) };
    },
  };
}
