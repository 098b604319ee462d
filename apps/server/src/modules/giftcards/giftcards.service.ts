import { and, count, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import {
  type AddBalanceBody,
  type BalanceResponse,
  type CreateGiftCardBody,
  type GiftCard,
  type UseGiftCardBody,
  type UseGiftCardResponse,
  formatCents,
  toCents,
  toDollars,
} from '@pixel-vault/shared';
import type { Database, Executor } from '../../db/client.js';
import { type GiftCardRow, giftCardAttempts, giftCardLedger, giftCards } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { RateLimit } from '../../lib/http.js';
import { recordAudit } from '../audit/audit.repo.js';
import { orderExpired } from '../orders/orders.expiry.js';
import { type OrdersService, orderAlreadyPaid } from '../orders/orders.service.js';

export const giftCardNotFound = () => notFound('Gift card not found');

export interface GiftCardsService {
  checkBalance(user: AuthUser, code: string): Promise<BalanceResponse>;
  use(user: AuthUser, body: UseGiftCardBody): Promise<UseGiftCardResponse>;
  list(): Promise<GiftCard[]>;
  create(admin: AuthUser, body: CreateGiftCardBody): Promise<GiftCard>;
  /** Conditional top-up + 'top_up' ledger row + audit row, one transaction. */
  addBalance(admin: AuthUser, id: string, body: AddBalanceBody): Promise<GiftCard>;
  /** Soft delete: the ledger keeps pointing at the card; it can no longer be checked or used. */
  remove(admin: AuthUser, id: string): Promise<void>;
}

/** balance_cents is a 32-bit integer. */
const MAX_BALANCE_CENTS = 2_147_483_647;
const auditView = (row: GiftCardRow) => ({ code: row.code, balance: toDollars(row.balanceCents) });

export interface GiftCardsServiceOptions {
  db: Database;
  orders: OrdersService;
  /** Wrong codes per user on check-balance (failures only). */
  attemptLimit: RateLimit;
}

export function toGiftCardDto(row: GiftCardRow): GiftCard {
  return {
    _id: row.id,
    code: row.code,
    balance: toDollars(row.balanceCents),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function findCard(executor: Executor, code: string): Promise<GiftCardRow | undefined> {
  const [card] = await executor
    .select()
    .from(giftCards)
    .where(and(sql`lower(${giftCards.code}) = ${code.toLowerCase()}`, isNull(giftCards.deletedAt)));
  return card;
}

export function createGiftCardsService({
  db,
  orders,
  attemptLimit,
}: GiftCardsServiceOptions): GiftCardsService {
  return {
    /**
     * Wrong codes are counted per user in the database, so guessing codes is slow on every
     * instance alike; right codes never count.
     */
    async checkBalance(user, code) {
      const since = new Date(orders.now().getTime() - attemptLimit.windowMs);
      const [attempts] = await db
        .select({ n: count() })
        .from(giftCardAttempts)
        .where(and(eq(giftCardAttempts.userId, user.id), gt(giftCardAttempts.createdAt, since)));
      if ((attempts?.n ?? 0) >= attemptLimit.max) {
        throw new AppError(429, 'Too many gift card attempts. Please try again later.', 'RATE_LIMITED');
      }
      const card = await findCard(db, code);
      if (!card) {
        await db.insert(giftCardAttempts).values({ userId: user.id, createdAt: orders.now() });
        // Attempts outside the window no longer count: the table only ever holds recent ones.
        await db
          .delete(giftCardAttempts)
          .where(and(eq(giftCardAttempts.userId, user.id), lte(giftCardAttempts.createdAt, since)));
        throw giftCardNotFound();
      }
      return { balance: toDollars(card.balanceCents) };
    },

    async use(user, body) {
      const amountCents = toCents(body.amount);
      return orders.withLockedOrder(body.orderId, { ownerId: user.id }, async (tx, order, effects) => {
        const card = await findCard(tx, body.code);
        if (!card) throw giftCardNotFound();

        // The same card on the same order again (a retry, a double click): nothing changes.
        const [already] = await tx
          .select({ id: giftCardLedger.id })
          .from(giftCardLedger)
          .where(
            and(
              eq(giftCardLedger.giftCardId, card.id),
              eq(giftCardLedger.orderId, order.id),
              eq(giftCardLedger.kind, 'order_debit'),
            ),
          );
        if (already) {
          const due = order.status === 'unpaid' ? await orders.remainderCents(tx, order) : 0;
          return { balance: toDollars(card.balanceCents), applied: 0, amountDue: toDollars(due) };
        }
        if (order.status === 'expired') throw orderExpired();
        if (order.status === 'paid') throw orderAlreadyPaid();

        const remainder = await orders.remainderCents(tx, order);
        if (remainder <= 0) throw new AppError(409, 'Nothing is left to pay on this order', 'NOTHING_DUE');
        if (amountCents > remainder) {
          throw new AppError(
            400,
            `The amount is more than the ${formatCents(remainder)} left to pay on this order`,
            'AMOUNT_TOO_HIGH',
          );
        }
        // Conditional debit: of two concurrent debits only those the balance covers succeed.
        const now = orders.now();
        const [debited] = await tx
          .update(giftCards)
          .set({ balanceCents: sql`${giftCards.balanceCents} - ${amountCents}`, updatedAt: now })
          .where(
            and(
              eq(giftCards.id, card.id),
              sql`${giftCards.balanceCents} >= ${amountCents}`,
              isNull(giftCards.deletedAt),
            ),
          )
          .returning({ balanceCents: giftCards.balanceCents });
        if (!debited) throw new AppError(409, 'Insufficient gift card balance', 'INSUFFICIENT_BALANCE');
        await tx.insert(giftCardLedger).values({
          giftCardId: card.id,
          orderId: order.id,
          kind: 'order_debit',
          amountCents: -amountCents,
          balanceAfterCents: debited.balanceCents,
          actorUserId: user.id,
          createdAt: now,
        });
        // Covered by gift cards alone: the order is paid in this same transaction.
        const { dueCents } = await orders.settle(tx, order, effects);
        return {
          balance: toDollars(debited.balanceCents),
          applied: toDollars(amountCents),
          amountDue: toDollars(Math.max(0, dueCents)),
        };
      });
    },

    async list() {
      const rows = await db
        .select()
        .from(giftCards)
        .where(isNull(giftCards.deletedAt))
        .orderBy(desc(giftCards.createdAt), desc(giftCards.id));
      return rows.map(toGiftCardDto);
    },

    async create(admin, body) {
      const balanceCents = toCents(body.balance);
      return db.transaction(async (tx) => {
        // Deleted cards keep their code (the ledger points at them), so any existing code conflicts.
        const [taken] = await tx
          .select({ id: giftCards.id })
          .from(giftCards)
          .where(sql`lower(${giftCards.code}) = ${body.code.toLowerCase()}`);
        if (taken) throw new AppError(409, 'A gift card with this code already exists', 'CODE_TAKEN');
        const [card] = await tx
          .insert(giftCards)
          .values({ code: body.code, balanceCents })
          .onConflictDoNothing()
          .returning();
        if (!card) throw new AppError(409, 'A gift card with this code already exists', 'CODE_TAKEN');
        await tx.insert(giftCardLedger).values({
          giftCardId: card.id,
          kind: 'issue',
          amountCents: balanceCents,
          balanceAfterCents: balanceCents,
          actorUserId: admin.id,
        });
        await recordAudit(tx, {
          actor: admin.id,
          action: 'giftcard.create',
          targetType: 'giftcard',
          targetId: card.id,
          before: null,
          after: auditView(card),
        });
        return toGiftCardDto(card);
      });
    },

    async addBalance(admin, id, body) {
      const amountCents = toCents(body.amount);
      return db.transaction(async (tx) => {
        const [before] = await tx
          .select()
          .from(giftCards)
          .where(and(eq(giftCards.id, id), isNull(giftCards.deletedAt)))
          .for('update');
        if (!before) throw giftCardNotFound();
        const [card] = await tx
          .update(giftCards)
          .set({ balanceCents: sql`${giftCards.balanceCents} + ${amountCents}`, updatedAt: new Date() })
          .where(
            and(
              eq(giftCards.id, id),
              isNull(giftCards.deletedAt),
              sql`${giftCards.balanceCents} <= ${MAX_BALANCE_CENTS - amountCents}`,
            ),
          )
          .returning();
        if (!card) throw new AppError(409, 'The balance would be too high', 'BALANCE_TOO_HIGH');
        await tx.insert(giftCardLedger).values({
          giftCardId: card.id,
          kind: 'top_up',
          amountCents,
          balanceAfterCents: card.balanceCents,
          actorUserId: admin.id,
        });
        await recordAudit(tx, {
          actor: admin.id,
          action: 'giftcard.add_balance',
          targetType: 'giftcard',
          targetId: card.id,
          before: auditView(before),
          after: { ...auditView(card), added: body.amount },
        });
        return toGiftCardDto(card);
      });
    },

    async remove(admin, id) {
      await db.transaction(async (tx) => {
        const now = new Date();
        const [card] = await tx
          .update(giftCards)
          .set({ deletedAt: now, updatedAt: now })
          .where(and(eq(giftCards.id, id), isNull(giftCards.deletedAt)))
          .returning();
        if (!card) throw giftCardNotFound();
        await recordAudit(tx, {
          actor: admin.id,
          action: 'giftcard.delete',
          targetType: 'giftcard',
          targetId: card.id,
          before: auditView(card),
          after: { deletedAt: now },
        });
      });
    },
  };
}
