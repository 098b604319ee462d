import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  type AddBalanceBody,
  type BalanceResponse,
  type CreateGiftCardBody,
  type GiftCard,
  type Order,
  type UseGiftCardBody,
  type UseGiftCardResponse,
  formatCents,
  toCents,
  toDollars,
} from '@pixel-vault/shared';
import { type Database, type Executor, type Transaction, queryRows } from '../../db/client.js';
import { type GiftCardRow, type OrderRow, giftCardLedger, giftCards } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { RateLimit } from '../../lib/http.js';
import { type Limiter, budgetsFor } from '../../lib/limiter.js';
import { recordAudit } from '../audit/audit.repo.js';
import { orderExpired } from '../orders/orders.expiry.js';
import { moneyColumns } from '../orders/orders.repo.js';
import {
  type OrderEffects,
  type OrdersService,
  nothingDue,
  orderAlreadyPaid,
} from '../orders/orders.service.js';

export const giftCardNotFound = () => notFound('Gift card not found');

/** Who is trying a code: the customer and the address they call from (each has a wrong-code budget). */
export interface CodeCaller {
  user: AuthUser;
  ip: string;
}

export interface GiftCardsService {
  checkBalance(caller: CodeCaller, code: string): Promise<BalanceResponse>;
  /**
   * POST /api/giftcards/use: `amount` (at most what the order still owes) from the card to the order
   * named by `orderId`, or, as the spec's client names none, to the caller's most recent order. The
   * same card on the same order again moves nothing and answers 200 (docs/decisions/004).
   */
  use(caller: CodeCaller, body: UseGiftCardBody): Promise<UseGiftCardResponse>;
  /**
   * The spec's gift-card payment (PUT /api/orders/:id/payment with gift_card_code): debits the card
   * for min(balance, amount due) and settles the order, in one transaction. Answers the order and
   * what is still due (0 once paid); the debit stays on the order either way.
   */
  payOrder(caller: CodeCaller, orderId: string, code: string): Promise<{ order: Order; dueCents: number }>;
  list(): Promise<GiftCard[]>;
  create(admin: AuthUser, body: CreateGiftCardBody): Promise<GiftCard>;
  /** Conditional top-up + 'top_up' ledger row + audit row, one transaction, as often as wanted. */
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
  limiter: Limiter;
  /** Wrong codes per customer and per address, on every route that takes a code (failures only). */
  codeLimits: { perAccount: RateLimit; perAddress: RateLimit };
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

/** A card that is not deleted, locked (FOR UPDATE) for the rest of the transaction. */
async function lockCard(tx: Transaction, id: string): Promise<GiftCardRow | undefined> {
  const [card] = await tx
    .select()
    .from(giftCards)
    .where(and(eq(giftCards.id, id), isNull(giftCards.deletedAt)))
    .for('update');
  return card;
}

/**
 * lockCard, in the statement that also reads the money on the order and whether this card is on it
 * already (issue 13: one round trip fewer per gift-card payment).
 */
async function lockCardOnOrder(tx: Transaction, id: string, orderId: string) {
  const [row] = await tx
    // Qualified: inside the ledger subquery a bare "id" would be the ledger row's.
    .select({ card: giftCards, ...moneyColumns(orderId, sql`${giftCards}."id"`) })
    .from(giftCards)
    .where(and(eq(giftCards.id, id), isNull(giftCards.deletedAt)))
    .for('update');
  return row;
}

interface Applied {
  balanceCents: number;
  /** 0 when this card was already on the order. */
  appliedCents: number;
  dueCents: number;
}

export function createGiftCardsService({
  db,
  orders,
  limiter,
  codeLimits,
}: GiftCardsServiceOptions): GiftCardsService {
  /**
   * A card by its code, for a customer: 429 once they, or their address, tried too many wrong codes
   * lately, and a wrong code counts against both. Every route that takes a code goes through here,
   * so none of them is a way around the limit. The budget is spent before the lookup and given back
   * for a right code, in one statement each (lib/limiter.ts): a burst of concurrent guesses cannot
   * get more lookups than the budget on either engine (issue 9). Runs outside any order transaction,
   * so a refusal cannot roll the count back.
   */
  async function findCardCounted({ user, ip }: CodeCaller, code: string): Promise<GiftCardRow> {
    return limiter.guard(
      budgetsFor('giftcard', codeLimits, { ip, account: user.id }),
      'Too many gift card attempts. Please try again later.',
      async () => {
        const card = await findCard(db, code);
        if (!card) throw giftCardNotFound();
        return card;
      },
    );
  }

  /**
   * Puts a card on an order the caller holds locked, then settles it. `wantedCents` is the client's
   * amount (refused above what is due), or null for min(balance, due). A card already on the order
   * moves nothing (a retry, a double click, the spec's `use` after its payment call).
   */
  async function applyLocked(
    tx: Transaction,
    user: AuthUser,
    order: OrderRow,
    cardId: string,
    wantedCents: number | null,
    effects: OrderEffects,
  ): Promise<Applied> {
    // Locked after the order, as everywhere: the balance read here is the one debited.
    const locked = await lockCardOnOrder(tx, cardId, order.id);
    if (!locked) throw giftCardNotFound();
    const { card, ...money } = locked;
    // Its hold ran out and its gift-card money went back: nothing here is "already applied".
    if (order.status === 'expired') throw orderExpired();

    const remainder = Math.max(0, order.totalCents - money.giftCents - money.capturedCents);
    if (money.cardDebited) {
      return {
        balanceCents: card.balanceCents,
        appliedCents: 0,
        dueCents: order.status === 'unpaid' ? remainder : 0,
      };
    }
    if (order.status === 'paid') throw orderAlreadyPaid();

    if (remainder <= 0) throw nothingDue();
    if (wantedCents !== null && wantedCents > remainder) {
      throw new AppError(
        400,
        `The amount is more than the ${formatCents(remainder)} left to pay on this order`,
        'AMOUNT_TOO_HIGH',
      );
    }
    const amountCents = wantedCents ?? Math.min(card.balanceCents, remainder);
    if (amountCents <= 0)
      throw new AppError(409, 'This gift card has no balance left', 'INSUFFICIENT_BALANCE');

    // Conditional debit: the balance can never go below 0, whatever else runs at the same time. The
    // ledger row is written by the same statement, from the balance the debit left.
    const now = orders.now().toISOString();
    const [debited] = await queryRows<{ balance_after_cents: number }>(
      tx,
      sql`with debited as (
            update ${giftCards} set balance_cents = balance_cents - ${amountCents}::integer,
              updated_at = ${now}::timestamptz
            where id = ${card.id}::uuid and balance_cents >= ${amountCents}::integer and deleted_at is null
            returning balance_cents)
          insert into ${giftCardLedger}
            (gift_card_id, order_id, kind, amount_cents, balance_after_cents, actor_user_id, created_at)
          select ${card.id}::uuid, ${order.id}::uuid, 'order_debit', ${-amountCents}::integer, balance_cents,
            ${user.id}::uuid, ${now}::timestamptz
          from debited
          returning balance_after_cents`,
    );
    if (!debited) throw new AppError(409, 'Insufficient gift card balance', 'INSUFFICIENT_BALANCE');
    // Covered by gift cards alone: the order is paid in this same transaction.
    const { dueCents } = await orders.settle(tx, order, effects, {
      giftCents: money.giftCents + amountCents,
      capturedCents: money.capturedCents,
    });
    return {
      balanceCents: Number(debited.balance_after_cents),
      appliedCents: amountCents,
      dueCents: Math.max(0, dueCents),
    };
  }

  return {
    /**
     * Wrong codes are counted per user in the database, so guessing codes is slow on every
     * instance alike; right codes never count.
     */
    async checkBalance(caller, code) {
      const card = await findCardCounted(caller, code);
      return { balance: toDollars(card.balanceCents) };
    },

    async use(caller, body) {
      const { user } = caller;
      const orderId = body.orderId ?? (await orders.latestOrderIdOf(user.id));
      if (!orderId) throw notFound('You have no order to apply this gift card to');
      const card = await findCardCounted(caller, body.code);
      const applied = await orders.withLockedOrder(orderId, { ownerId: user.id }, (tx, order, effects) =>
        applyLocked(tx, user, order, card.id, toCents(body.amount), effects),
      );
      const balance = toDollars(applied.balanceCents);
      let message = 'This gift card is already applied to this order.';
      if (applied.appliedCents > 0) {
        message = `Gift card applied: ${formatCents(applied.appliedCents)}. `;
        message +=
          applied.dueCents > 0 ? `${formatCents(applied.dueCents)} is still due.` : 'Your order is paid.';
      }
      return {
        orderId,
        balance,
        updatedBalance: balance,
        applied: toDollars(applied.appliedCents),
        amountDue: toDollars(applied.dueCents),
        message,
      };
    },

    async payOrder(caller, orderId, code) {
      const { user } = caller;
      const card = await findCardCounted(caller, code);
      return orders.withLockedOrder(orderId, { ownerId: user.id }, async (tx, order, effects) => {
        // Paid already (a replay, or paid otherwise): nothing more is taken.
        if (order.status === 'paid') return { order: await orders.dto(tx, order.id), dueCents: 0 };
        const { dueCents } = await applyLocked(tx, user, order, card.id, null, effects);
        return { order: await orders.dto(tx, order.id), dueCents };
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
        const before = await lockCard(tx, id);
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
        // Any number of top-ups per card (issue 28): each is a ledger row of its own, named by its id
        // in the audit row; no order, no refund, and no unique key beyond that id.
        const [entry] = await tx
          .insert(giftCardLedger)
          .values({
            giftCardId: card.id,
            kind: 'top_up',
            amountCents,
            balanceAfterCents: card.balanceCents,
            actorUserId: admin.id,
          })
          .returning({ id: giftCardLedger.id });
        await recordAudit(tx, {
          actor: admin.id,
          action: 'giftcard.add_balance',
          targetType: 'giftcard',
          targetId: card.id,
          before: auditView(before),
          after: { ...auditView(card), added: body.amount, ledgerId: entry?.id },
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
