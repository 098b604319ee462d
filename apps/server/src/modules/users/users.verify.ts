import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import {
  VERIFY_TOKEN_HOURS,
  VERIFY_TOKEN_INVALID_MESSAGE,
  type VerifyEmailResponse,
  type VerifyResendResponse,
} from '@pixel-vault/shared';
import type { Database, Executor, Transaction } from '../../db/client.js';
import { type UserRow, emailVerificationTokens, users } from '../../db/schema/index.js';
import { type AuthUser, notAuthorized } from '../../lib/access.js';
import { AppError, isUniqueViolation } from '../../lib/errors.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import { enqueueMail } from '../mail/mail.service.js';
import type { Mailer } from '../mail/mail.worker.js';
import { emailChangedMails } from './users.mail.js';
import { dropResetTokens } from './users.reset.js';
import { verifyLinkMail } from './users.verify.mail.js';

/**
 * Issue 36: verified e-mail addresses (docs/verified-email.md). Links are kept like password reset
 * links (users.reset.ts): only the token's SHA-256, 24 hours, single use, one live per user.
 */
export const VERIFY_TOKEN_MS = VERIFY_TOKEN_HOURS * 60 * 60_000;

/** The page a verification link opens, under the shop's base (PUBLIC_URL or the request's origin). */
export const verifyLink = (base: string, token: string) => `${base}/verify-email/${token}`;

const tokenInvalid = () => new AppError(400, VERIFY_TOKEN_INVALID_MESSAGE, 'VERIFY_TOKEN_INVALID');
const emailTaken = () => new AppError(409, 'An account with this email already exists', 'EMAIL_TAKEN');

export const ALREADY_VERIFIED_MESSAGE = 'Your e-mail address is already verified.';
const verifiedMessage = (email: string) =>
  `Thank you: ${email} is verified. It is your account's e-mail address from now on.`;
const sentMessage = (email: string) =>
  `We sent a new link to ${email}. Open it within ${VERIFY_TOKEN_HOURS} hours to confirm the address.`;
/** What My Account answers when a new address waits for its link. */
export const changeRequestedMessage = (email: string) =>
  `We sent a link to ${email}. Open it to confirm the new address: until then you keep logging in with your current one.`;

/**
 * Makes the user's one live link, for `email` (their own, or a new one asked for on My Account), and
 * queues its mail, in the caller's transaction. Unused earlier links die; used ones stay, so opening
 * a link again after it worked still answers that it did.
 */
export async function issueVerification(
  tx: Transaction,
  user: { id: string; name: string; email: string },
  email: string,
  base: string,
  now: Date,
): Promise<void> {
  const { token, tokenHash } = newToken();
  await tx
    .delete(emailVerificationTokens)
    .where(and(eq(emailVerificationTokens.userId, user.id), isNull(emailVerificationTokens.usedAt)));
  await tx.insert(emailVerificationTokens).values({
    userId: user.id,
    tokenHash,
    email,
    expiresAt: new Date(now.getTime() + VERIFY_TOKEN_MS),
    createdAt: now,
  });
  const kind = email === user.email ? 'account' : 'change';
  await enqueueMail(tx, verifyLinkMail(user, email, verifyLink(base, token), kind));
}

/** A new address asked for on My Account whose link is still live; undefined when there is none. */
export async function pendingEmailOf(
  db: Executor,
  user: { id: string; email: string },
  now: Date,
): Promise<string | undefined> {
  const [row] = await db
    .select({ email: emailVerificationTokens.email })
    .from(emailVerificationTokens)
    .where(
      and(
        eq(emailVerificationTokens.userId, user.id),
        isNull(emailVerificationTokens.usedAt),
        gt(emailVerificationTokens.expiresAt, now),
        ne(emailVerificationTokens.email, user.email),
      ),
    )
    .orderBy(desc(emailVerificationTokens.createdAt))
    .limit(1);
  return row?.email;
}

/** Every unused link of the user dies (an admin gave the account another address). */
export async function dropVerifications(tx: Transaction, userId: string): Promise<void> {
  await tx
    .delete(emailVerificationTokens)
    .where(and(eq(emailVerificationTokens.userId, userId), isNull(emailVerificationTokens.usedAt)));
}

export interface EmailVerification {
  /** Opens a link: marks the address verified, or makes the new address the account's (409 if taken). */
  verify(token: string, base: string): Promise<VerifyEmailResponse>;
  /** Mails a new link: for a new address waiting, else the account's own unless already verified. */
  resend(actor: AuthUser, base: string): Promise<VerifyResendResponse>;
}

export function createEmailVerification({
  db,
  mailer,
  clock = () => new Date(),
}: {
  db: Database;
  mailer: Mailer;
  clock?: () => Date;
}): EmailVerification {
  return {
    async verify(token, base) {
      const tokenHash = hashToken(token);
      // One index read for a made-up token, before any lock.
      const [found] = await db
        .select({ userId: emailVerificationTokens.userId })
        .from(emailVerificationTokens)
        .where(eq(emailVerificationTokens.tokenHash, tokenHash));
      if (!found) throw tokenInvalid();
      let changedFrom: UserRow | undefined;
      let answer: VerifyEmailResponse;
      try {
        answer = await db.transaction(async (tx) => {
          const now = clock();
          // The user's row first, as My Account and a resend lock it: two opens of one link run in turn.
          const [user] = await tx.select().from(users).where(eq(users.id, found.userId)).for('update');
          if (!user) throw tokenInvalid();
          const [link] = await tx
            .select()
            .from(emailVerificationTokens)
            .where(eq(emailVerificationTokens.tokenHash, tokenHash))
            .for('update');
          // Voided by a newer link while this request waited.
          if (!link) throw tokenInvalid();
          if (link.usedAt !== null) {
            // Opened again after it worked: the same answer, as long as it still describes the account.
            if (link.email === user.email && user.emailVerifiedAt !== null) {
              return { message: verifiedMessage(link.email), email: link.email };
            }
            throw tokenInvalid();
          }
          if (link.expiresAt.getTime() <= now.getTime()) throw tokenInvalid();
          if (link.email !== user.email) {
            const [taken] = await tx
              .select({ id: users.id })
              .from(users)
              .where(and(eq(users.email, link.email), ne(users.id, user.id)));
            if (taken) throw emailTaken();
            await tx
              .update(users)
              .set({ email: link.email, emailVerifiedAt: now, updatedAt: now })
              .where(eq(users.id, user.id));
            // A reset link mailed to the old address must not outlive the change.
            await dropResetTokens(tx, user.id);
            // The old address learns of the change, as it always did (when it was a verified one).
            if (user.emailVerifiedAt !== null) {
              const [notice] = emailChangedMails(
                user,
                { from: user.email, to: link.email, passwordChanged: false },
                base,
              );
              if (notice) await enqueueMail(tx, notice);
              changedFrom = user;
            }
          } else if (user.emailVerifiedAt === null) {
            await tx.update(users).set({ emailVerifiedAt: now }).where(eq(users.id, user.id));
          }
          await tx
            .update(emailVerificationTokens)
            .set({ usedAt: now })
            .where(eq(emailVerificationTokens.id, link.id));
          return { message: verifiedMessage(link.email), email: link.email };
        });
      } catch (error) {
        // Another account took the address at the same moment: the unique index decides.
        if (isUniqueViolation(error)) throw emailTaken();
        throw error;
      }
      if (changedFrom) mailer.kick();
      return answer;
    },

    async resend(actor, base) {
      const answer = await db.transaction(async (tx): Promise<VerifyResendResponse> => {
        const now = clock();
        const [user] = await tx.select().from(users).where(eq(users.id, actor.id)).for('update');
        if (!user) throw notAuthorized('ACCOUNT_DELETED');
        const pending = await pendingEmailOf(tx, user, now);
        const to = pending ?? (user.emailVerifiedAt === null ? user.email : undefined);
        if (to === undefined) return { message: ALREADY_VERIFIED_MESSAGE, sent: false };
        await issueVerification(tx, user, to, base, now);
        return { message: sentMessage(to), sent: true };
      });
      if (answer.sent) mailer.kick();
      return answer;
    },
  };
}
