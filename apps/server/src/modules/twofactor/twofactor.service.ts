import { and, count, eq, gt, isNull, lt, lte, or, sql } from 'drizzle-orm';
import {
  RECOVERY_CODE_COUNT,
  RecoveryCode,
  type RecoveryCodes,
  TWO_FACTOR_CHALLENGE_ATTEMPTS,
  TWO_FACTOR_CHALLENGE_MINUTES,
  type TwoFactorChallenge,
  type TwoFactorConfirmBody,
  type TwoFactorSetup,
  type TwoFactorStatus,
} from '@pixel-vault/shared';
import type { Database, Executor, Transaction } from '../../db/client.js';
import {
  type UserRow,
  type UserTwoFactorRow,
  twoFactorChallenges,
  twoFactorRecoveryCodes,
  userTwoFactor,
  users,
} from '../../db/schema/index.js';
import { type AuthUser, notAuthorized } from '../../lib/access.js';
import { AppError, notFound } from '../../lib/errors.js';
import { verifyPassword } from '../../lib/passwords.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import { recordAudit } from '../audit/audit.repo.js';
import { enqueueMailToUser } from '../mail/mail.service.js';
import type { Mailer } from '../mail/mail.worker.js';
import {
  type SecretBox,
  createSecretBox,
  hashRecoveryCode,
  matchTotp,
  newRecoveryCode,
  newTotpSecret,
  otpauthUrl,
} from './twofactor.crypto.js';
import { type TwoFactorEvent, twoFactorMail } from './twofactor.mail.js';

/**
 * Runs a check of something only the account's owner knows (password, code) under the account's
 * failed-login budget: a wrong answer counts like a failed login (users.routes.ts's limiter).
 */
export type AccountGuard = <T>(email: string, work: () => Promise<T>) => Promise<T>;

export interface TwoFactorService {
  status(actor: AuthUser): Promise<TwoFactorStatus>;
  /** A new pending secret (replaces an earlier pending one); 409 when 2FA is already on. */
  setup(actor: AuthUser): Promise<TwoFactorSetup>;
  /** The first code from the app turns it on; answers a new set of recovery codes. Mailed. */
  enable(actor: AuthUser, code: string, base: string, guard: AccountGuard): Promise<RecoveryCodes>;
  disable(actor: AuthUser, body: TwoFactorConfirmBody, base: string, guard: AccountGuard): Promise<void>;
  /** A new set of recovery codes replaces the old. */
  newRecoveryCodes(actor: AuthUser, body: TwoFactorConfirmBody, guard: AccountGuard): Promise<RecoveryCodes>;
  /**
   * The login hook (users.service.ts): for an account with 2FA on, a challenge instead of a token;
   * null when 2FA is off.
   */
  challengeFor(user: UserRow, tx?: Transaction): Promise<TwoFactorChallenge | null>;
  /** The second step of a login: the challenge's account once the code is right (the challenge is used up). */
  completeChallenge(challenge: string, code: string, base: string, guard: AccountGuard): Promise<UserRow>;
  /** An admin turns another user's 2FA off: audited, mailed. */
  adminReset(actor: AuthUser, userId: string, base: string): Promise<void>;
}

export interface TwoFactorServiceOptions {
  db: Database;
  jwtSecret: string;
  mailer: Mailer;
  /** REQUIRE_ADMIN_2FA: an admin without 2FA is refused on every admin route (lib/access.ts). */
  requireAdminTwoFactor: boolean;
  clock?: () => Date;
}

export const TWO_FACTOR_EXPIRED_MESSAGE = 'This sign-in has expired. Please log in again.';
const expired = () => new AppError(401, TWO_FACTOR_EXPIRED_MESSAGE, 'TWO_FACTOR_EXPIRED');
const wrongLoginCode = (left: number) =>
  new AppError(
    401,
    `That code is not right. ${left} ${left === 1 ? 'try' : 'tries'} left.`,
    'TWO_FACTOR_CODE_WRONG',
  );
const wrongCode = () =>
  new AppError(
    400,
    'That code is not right. Check your authenticator app and try again.',
    'TWO_FACTOR_CODE_WRONG',
  );
const wrongPassword = () => new AppError(400, 'Current password is incorrect', 'WRONG_CURRENT_PASSWORD');
const notEnabled = () => new AppError(400, 'Two-factor sign-in is not on', 'TWO_FACTOR_NOT_ENABLED');

type Match = { kind: 'totp' } | { kind: 'recovery'; left: number };

export function createTwoFactorService({
  db,
  jwtSecret,
  mailer,
  requireAdminTwoFactor,
  clock = () => new Date(),
}: TwoFactorServiceOptions): TwoFactorService {
  const box: SecretBox = createSecretBox(jwtSecret);

  const rowOf = async (tx: Executor, userId: string, lock = false) => {
    const query = tx.select().from(userTwoFactor).where(eq(userTwoFactor.userId, userId));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  };

  const recoveryCodesLeft = async (tx: Executor, userId: string) => {
    const [row] = await tx
      .select({ n: count() })
      .from(twoFactorRecoveryCodes)
      .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
    return Number(row?.n ?? 0);
  };

  /** A new set: the old codes go, the new ones are kept only hashed and answered once. */
  async function replaceRecoveryCodes(tx: Transaction, userId: string): Promise<RecoveryCodes> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    await tx
      .insert(twoFactorRecoveryCodes)
      .values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code) })));
    return { recoveryCodes: codes };
  }

  /**
   * Whether `code` is a right second factor for the (locked) row, using it up: a TOTP code moves the
   * account's last step (so it is never accepted again), a recovery code is marked used.
   */
  async function useCode(tx: Transaction, row: UserTwoFactorRow, code: string): Promise<Match | null> {
    if (row.enabledAt === null || row.secret === null) return null;
    const compact = code.replace(/\s+/g, '');
    if (/^\d{6}$/.test(compact)) {
      const step = await matchTotp(box.open(row.secret), compact, clock(), row.lastStep);
      if (step === null) return null;
      // The condition makes two requests with the same code race to one winner.
      const moved = await tx
        .update(userTwoFactor)
        .set({ lastStep: step })
        .where(
          and(
            eq(userTwoFactor.userId, row.userId),
            or(isNull(userTwoFactor.lastStep), lt(userTwoFactor.lastStep, step)),
          ),
        )
        .returning({ userId: userTwoFactor.userId });
      return moved.length > 0 ? { kind: 'totp' } : null;
    }
    const recovery = RecoveryCode.safeParse(code);
    if (!recovery.success) return null;
    const used = await tx
      .update(twoFactorRecoveryCodes)
      .set({ usedAt: clock() })
      .where(
        and(
          eq(twoFactorRecoveryCodes.userId, row.userId),
          eq(twoFactorRecoveryCodes.codeHash, hashRecoveryCode(recovery.data)),
          isNull(twoFactorRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: twoFactorRecoveryCodes.id });
    if (used.length === 0) return null;
    return { kind: 'recovery', left: await recoveryCodesLeft(tx, row.userId) };
  }

  async function mail(
    tx: Executor,
    user: { id: string; name: string },
    event: TwoFactorEvent,
    base: string,
    left = 0,
  ) {
    await enqueueMailToUser(tx, user.id, twoFactorMail(user, event, base, left));
  }

  const userOf = async (tx: Executor, id: string) => {
    const [user] = await tx.select().from(users).where(eq(users.id, id));
    if (!user) throw notAuthorized('ACCOUNT_DELETED');
    return user;
  };

  /** Password and a current code (TOTP or recovery), under the account's login budget; then `then`. */
  async function confirmed<T>(
    actor: AuthUser,
    body: TwoFactorConfirmBody,
    guard: AccountGuard,
    then: (tx: Transaction, user: UserRow, match: Match) => Promise<T>,
  ): Promise<T> {
    const user = await userOf(db, actor.id);
    return guard(user.email, async () => {
      if (!(await verifyPassword(user.passwordHash, body.password))) throw wrongPassword();
      return db.transaction(async (tx) => {
        const row = await rowOf(tx, actor.id, true);
        if (!row?.enabledAt) throw notEnabled();
        const match = await useCode(tx, row, body.code);
        if (!match) throw wrongCode();
        return then(tx, user, match);
      });
    });
  }

  return {
    async status(actor) {
      const row = await rowOf(db, actor.id);
      const enabled = row?.enabledAt != null;
      return {
        enabled,
        recoveryCodesLeft: enabled ? await recoveryCodesLeft(db, actor.id) : 0,
        required: requireAdminTwoFactor && actor.isAdmin && !enabled,
      };
    },

    async setup(actor) {
      const user = await userOf(db, actor.id);
      const secret = newTotpSecret();
      const sealed = box.seal(secret);
      await db.transaction(async (tx) => {
        const row = await rowOf(tx, actor.id, true);
        if (row?.enabledAt) {
          throw new AppError(409, 'Two-factor sign-in is already on', 'TWO_FACTOR_ALREADY_ENABLED');
        }
        await tx
          .insert(userTwoFactor)
          .values({ userId: actor.id, pendingSecret: sealed, updatedAt: clock() })
          .onConflictDoUpdate({
            target: userTwoFactor.userId,
            set: { pendingSecret: sealed, updatedAt: clock() },
          });
      });
      return { secret, otpauthUrl: otpauthUrl(secret, user.email) };
    },

    async enable(actor, code, base, guard) {
      const user = await userOf(db, actor.id);
      const answer = await guard(user.email, () =>
        db.transaction(async (tx) => {
          const row = await rowOf(tx, actor.id, true);
          if (row?.enabledAt) {
            throw new AppError(409, 'Two-factor sign-in is already on', 'TWO_FACTOR_ALREADY_ENABLED');
          }
          if (!row?.pendingSecret) {
            throw new AppError(400, 'Start the setup first', 'TWO_FACTOR_NOT_SET_UP');
          }
          const step = await matchTotp(box.open(row.pendingSecret), code, clock(), null);
          if (step === null) throw wrongCode();
          await tx
            .update(userTwoFactor)
            .set({
              secret: row.pendingSecret,
              pendingSecret: null,
              enabledAt: clock(),
              lastStep: step,
              updatedAt: clock(),
            })
            .where(eq(userTwoFactor.userId, actor.id));
          const codes = await replaceRecoveryCodes(tx, actor.id);
          await mail(tx, user, 'enabled', base);
          return codes;
        }),
      );
      mailer.kick();
      return answer;
    },

    async disable(actor, body, base, guard) {
      await confirmed(actor, body, guard, async (tx, user) => {
        await turnOff(tx, user.id);
        await mail(tx, user, 'disabled', base);
      });
      mailer.kick();
    },

    async newRecoveryCodes(actor, body, guard) {
      return confirmed(actor, body, guard, (tx, user) => replaceRecoveryCodes(tx, user.id));
    },

    async challengeFor(user, tx) {
      // In the caller's transaction (a password reset), else on its own.
      const ex: Executor = tx ?? db;
      const row = await rowOf(ex, user.id);
      if (!row?.enabledAt) return null;
      const { token, tokenHash } = newToken();
      const now = clock();
      // The account's dead challenges go with each new one: the table holds only live ones, roughly.
      await ex
        .delete(twoFactorChallenges)
        .where(and(eq(twoFactorChallenges.userId, user.id), lte(twoFactorChallenges.expiresAt, now)));
      await ex.insert(twoFactorChallenges).values({
        userId: user.id,
        tokenHash,
        expiresAt: new Date(now.getTime() + TWO_FACTOR_CHALLENGE_MINUTES * 60_000),
        attemptsLeft: TWO_FACTOR_CHALLENGE_ATTEMPTS,
        createdAt: now,
      });
      return { twoFactorRequired: true, challenge: token };
    },

    async completeChallenge(challenge, code, base, guard) {
      const tokenHash = hashToken(challenge);
      const live = and(
        eq(twoFactorChallenges.tokenHash, tokenHash),
        gt(twoFactorChallenges.expiresAt, clock()),
        gt(twoFactorChallenges.attemptsLeft, 0),
      );
      const [found] = await db
        .select({ userId: twoFactorChallenges.userId, email: users.email })
        .from(twoFactorChallenges)
        .innerJoin(users, eq(users.id, twoFactorChallenges.userId))
        .where(live);
      if (!found) throw expired();
      const outcome = await guard(found.email, async () => {
        const result = await db.transaction(async (tx) => {
          const [locked] = await tx.select().from(twoFactorChallenges).where(live).for('update');
          if (!locked) return { kind: 'expired' as const };
          const row = await rowOf(tx, locked.userId, true);
          const match = row ? await useCode(tx, row, code) : null;
          if (!match) {
            const [after] = await tx
              .update(twoFactorChallenges)
              .set({ attemptsLeft: sql`${twoFactorChallenges.attemptsLeft} - 1` })
              .where(eq(twoFactorChallenges.id, locked.id))
              .returning({ left: twoFactorChallenges.attemptsLeft });
            return { kind: 'wrong' as const, left: after?.left ?? 0 };
          }
          await tx.delete(twoFactorChallenges).where(eq(twoFactorChallenges.id, locked.id));
          const user = await userOf(tx, locked.userId);
          if (match.kind === 'recovery') await mail(tx, user, 'recovery-code-used', base, match.left);
          return { kind: 'ok' as const, user, recovery: match.kind === 'recovery' };
        });
        // Thrown after the commit, so the spent attempt stays spent; inside the guard, so it counts.
        if (result.kind === 'expired') throw expired();
        if (result.kind === 'wrong') throw result.left > 0 ? wrongLoginCode(result.left) : expired();
        return result;
      });
      if (outcome.recovery) mailer.kick();
      return outcome.user;
    },

    async adminReset(actor, userId, base) {
      await db.transaction(async (tx) => {
        const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
        if (!user) throw notFound('User not found');
        const row = await rowOf(tx, userId, true);
        const wasOn = row?.enabledAt != null;
        await turnOff(tx, userId);
        await recordAudit(tx, {
          actor: actor.id,
          action: 'user.two_factor_reset',
          targetType: 'user',
          targetId: userId,
          before: { twoFactorEnabled: wasOn },
          after: { twoFactorEnabled: false, mailedTo: user.email },
        });
        await mail(tx, user, 'admin-reset', base);
      });
      mailer.kick();
    },
  };
}

/** 2FA off: the secret, the recovery codes and any login waiting for a code go. */
export async function turnOff(tx: Transaction, userId: string): Promise<void> {
  await tx.delete(userTwoFactor).where(eq(userTwoFactor.userId, userId));
  await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await tx.delete(twoFactorChallenges).where(eq(twoFactorChallenges.userId, userId));
}
