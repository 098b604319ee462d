import { and, asc, eq, ilike, ne, or, sql } from 'drizzle-orm';
import {
  ADMIN_USERS_DEFAULT_LIMIT,
  type AdminAddUserBody,
  type AdminUpdateUserBody,
  type AdminUsersQuery,
  type PublicUser,
  requestedPage,
} from '@pixel-vault/shared';
import type { Database, Transaction } from '../../db/client.js';
import { type UserRow, users } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { AppError, isUniqueViolation } from '../../lib/errors.js';
import { pageTotals, windowTotal } from '../../lib/paging.js';
import { hashPassword } from '../../lib/passwords.js';
import { recordAudit } from '../audit/audit.repo.js';
import { escapeLike } from '../products/products.service.js';
import type { SessionIssuer } from '../sessions/sessions.service.js';
import { dropResetTokens } from './users.reset.js';
import { emailTaken, toPublicUser, userNotFound } from './users.answers.js';
import { dropVerifications } from './users.verify.js';

/**
 * Manage Users (spec section 5, issues 11, 30 and 36): the admin's list, reading, changing, adding and
 * deleting of accounts. Each change runs under every admin row's lock (lockAdmins), so the last admin
 * stays, and is audited.
 */

export interface UsersPage {
  users: PublicUser[];
  page: number;
  totalPage: number;
  total: number;
}

export interface UsersAdmin {
  adminList(query: AdminUsersQuery): Promise<PublicUser[] | UsersPage>;
  adminGet(id: string): Promise<PublicUser>;
  adminUpdate(actor: AuthUser, id: string, body: AdminUpdateUserBody): Promise<PublicUser>;
  adminDelete(actor: AuthUser, id: string): Promise<void>;
  adminAdd(actor: AuthUser, body: AdminAddUserBody): Promise<PublicUser>;
}

/** What the audit log keeps of a user: never the hash or the token version. */
const auditView = (u: UserRow) => ({ name: u.name, email: u.email, isAdmin: u.isAdmin });

/**
 * Locks every admin row (in id order, so two callers cannot deadlock) for the rest of the
 * transaction: two concurrent demotions then see each other's result, and the last admin stays.
 * Answers the ids of the admins as they are now.
 */
async function lockAdmins(tx: Transaction): Promise<Set<string>> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.isAdmin, true))
    .orderBy(asc(users.id))
    .for('update');
  return new Set(rows.map((r) => r.id));
}

export function createUsersAdmin({
  db,
  sessions,
  clock,
  onAccountDeleting,
}: {
  db: Database;
  sessions: Pick<SessionIssuer, 'endOthers'>;
  clock: () => Date;
  onAccountDeleting?: (tx: Transaction, userId: string, now: Date) => Promise<void>;
}): UsersAdmin {
  return {
    async adminList({ q, ...query }) {
      const where = q
        ? or(ilike(users.name, `%${escapeLike(q)}%`), ilike(users.email, `%${escapeLike(q)}%`))
        : undefined;
      const order = [asc(users.name), asc(users.id)];
      const paging = requestedPage(query, ADMIN_USERS_DEFAULT_LIMIT);
      if (!paging) {
        const all = await db
          .select()
          .from(users)
          .where(where)
          .orderBy(...order);
        return all.map(toPublicUser);
      }
      const { page, limit } = paging;
      const rows = await db
        .select({ user: users, total: windowTotal() })
        .from(users)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset((page - 1) * limit);
      const { total, totalPage } = await pageTotals(db, rows, { from: users, where }, limit);
      return {
        users: rows.map((r) => toPublicUser(r.user)),
        page,
        totalPage,
        total,
      };
    },

    async adminGet(id) {
      const [user] = await db.select().from(users).where(eq(users.id, id));
      if (!user) throw userNotFound();
      return toPublicUser(user);
    },

    async adminUpdate(actor, id, body) {
      try {
        return await db.transaction(async (tx) => {
          const admins = await lockAdmins(tx);
          // The caller may have been demoted or deleted while this request waited for the lock.
          if (!admins.has(actor.id)) throw new AppError(403, 'Admin access only', 'ADMIN_ONLY');
          const [user] = await tx.select().from(users).where(eq(users.id, id)).for('update');
          if (!user) throw userNotFound();
          if (user.isAdmin && !body.isAdmin) {
            if (user.id === actor.id) {
              throw new AppError(409, 'You cannot remove your own admin rights', 'SELF_DEMOTION');
            }
            if (admins.size <= 1) throw new AppError(409, 'The last admin cannot be demoted', 'LAST_ADMIN');
          }
          if (body.email !== user.email) {
            const [taken] = await tx
              .select({ id: users.id })
              .from(users)
              .where(and(eq(users.email, body.email), ne(users.id, id)));
            if (taken) throw emailTaken();
          }
          const endsSessions = body.email !== user.email || body.isAdmin !== user.isAdmin;
          // Issue 36: the account's session list shows them ended too.
          if (endsSessions) await sessions.endOthers(tx, id);
          const [updated] = await tx
            .update(users)
            .set({
              name: body.name,
              email: body.email,
              isAdmin: body.isAdmin,
              updatedAt: new Date(),
              ...(endsSessions ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
              // Issue 36: an address staff set counts as verified, as one they add (docs/verified-email.md).
              ...(body.email !== user.email ? { emailVerifiedAt: new Date() } : {}),
            })
            .where(eq(users.id, id))
            .returning();
          if (!updated) throw userNotFound();
          // A reset link mailed to the old address must not outlive the change.
          if (body.email !== user.email) {
            await dropResetTokens(tx, id);
            await dropVerifications(tx, id);
          }
          await recordAudit(tx, {
            actor: actor.id,
            action: 'user.update',
            targetType: 'user',
            targetId: id,
            before: auditView(user),
            after: auditView(updated),
          });
          return toPublicUser(updated);
        });
      } catch (error) {
        // Two admins giving two accounts the same e-mail at once: the unique index decides.
        if (isUniqueViolation(error)) throw emailTaken();
        throw error;
      }
    },

    async adminDelete(actor, id) {
      if (id === actor.id) {
        throw new AppError(409, 'You cannot delete your own account', 'SELF_DELETION');
      }
      await db.transaction(async (tx) => {
        const admins = await lockAdmins(tx);
        if (!admins.has(actor.id)) throw new AppError(403, 'Admin access only', 'ADMIN_ONLY');
        const [user] = await tx.select().from(users).where(eq(users.id, id)).for('update');
        if (!user) throw userNotFound();
        if (user.isAdmin && admins.size <= 1) {
          throw new AppError(409, 'The last admin cannot be deleted', 'LAST_ADMIN');
        }
        if (onAccountDeleting) await onAccountDeleting(tx, id, clock());
        // Orders keep the customer's name and e-mail snapshot; user_id goes NULL (FK on delete set null).
        await tx.delete(users).where(eq(users.id, id));
        await recordAudit(tx, {
          actor: actor.id,
          action: 'user.delete',
          targetType: 'user',
          targetId: id,
          before: auditView(user),
          after: null,
        });
      });
    },

    async adminAdd(actor, { name, email, password }) {
      const passwordHash = await hashPassword(password);
      return db.transaction(async (tx) => {
        const [created] = await tx
          .insert(users)
          // Issue 36: staff entered the address (as ADMIN_EMAIL): it counts as verified.
          .values({ name, email, passwordHash, emailVerifiedAt: new Date() })
          .onConflictDoNothing({ target: users.email })
          .returning();
        if (!created) throw emailTaken();
        await recordAudit(tx, {
          actor: actor.id,
          action: 'user.create',
          targetType: 'user',
          targetId: created.id,
          before: null,
          after: auditView(created),
        });
        return toPublicUser(created);
      });
    },
  };
}
