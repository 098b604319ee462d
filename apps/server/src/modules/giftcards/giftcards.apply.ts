import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  type Order,
  type RemoveGiftCardBody,
  type RemoveGiftCardResponse,
  type UseGiftCardBody,
  type UseGiftCardResponse,
  formatCents,
  toCents,
  toDollars,
} from '@pixel-vault/shared';
import { builtOnce } from '../../db/built-once.js';
import { type Executor, type Transaction, queryRows } from '../../db/client.js';
import { type OrderRow, giftCardLedger, giftCards } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { AppError, notFound } from '../../lib/errors.js';
import { orderExpired } from '../orders/orders.expiry.js';
import { orderClosed } from '../orders/orders.lifecycle.js';
import {
  applicationsOn,
  itemsColumn,
  moneyColumns,
  moneyOn,
  releaseApplication,
} from '../orders/orders.repo.js';
import {
  type OrderEffects,
  type OrdersService,
  nothingDue,
  orderAlreadyPaid,
} from '../orders/orders.service.js';
import { type CodeCaller, type FindCardCounted, giftCardNotFound, lockCard } from './giftcards.cards.js';

/**
 * A gift card on an order (the customer's side): apply it (the spec's `use` and its gift-card payment)
 * and, issue 30, take it off again before the order is paid. Every step runs under the order's row
 * lock, then the card's (always in that order), so all changes of one order's gift money are serial.
 *
 * Each application of a card to an order has its own number: its debit and its release (Remove, expiry,
 * an unpaid cancel) are once-only per (card, order, application) (unique indexes), so a card can be
 * applied, removed and applied again while a retry still never moves money twice.
 */

export const giftCardNotApplied = () =>
  new AppError(409, 'This gift card is not applied to this order.', 'GIFT_CARD_NOT_APPLIED');
export const paidCannotRemove = () =>
  new AppError(409, 'This order is paid; the gift card can no longer be removed.', 'ORDER_PAID');

export interface GiftCardApplications {
  use(caller: CodeCaller, body: UseGiftCardBody): Promise<UseGiftCardResponse>;
  payOrder(caller: CodeCaller, orderId: string, code: string): Promise<{ order: Order; dueCents: number }>;
  removeFromOrder(caller: CodeCaller, body: RemoveGiftCardBody): Promise<RemoveGiftCardResponse>;
}

/**
 * lockCard, in the statement that also reads the money on the order and what this card holds on it
 * (issue 13: one round trip fewer per gift-card payment).
 */
async function lockCardOnOrder(tx: Transaction, id: string, orderId: string) {
  const [row] = await cardOnOrderForUpdate(tx, { id, orderId });
  return row;
}

/** Every gift-card payment runs this: built once (db/built-once.ts). */
function cardOnOrder(executor: Executor) {
  return (
    executor
      // Qualified: inside the ledger subquery a bare "id" would be the ledger row's.
      .select({
        card: giftCards,
        ...moneyColumns(sql.placeholder('orderId'), sql`${giftCards}."id"`),
        // For the confirmation mail when this payment settles the order: no read of its own.
        items: itemsColumn(sql.placeholder('orderId')),
      })
      .from(giftCards)
      .where(and(eq(giftCards.id, sql.placeholder('id')), isNull(giftCards.deletedAt)))
      .for('update')
  );
}
const cardOnOrderForUpdate = builtOnce<
  { id: string; orderId: string },
  Awaited<ReturnType<typeof cardOnOrder>>
>(cardOnOrder);

interface Applied {
  balanceCents: number;
  /** 0 when this card was already on the order. */
  appliedCents: number;
  dueCents: number;
}

interface Removed {
  balanceCents: number;
  /** 0 when a removal before this one gave the money back already. */
  releasedCents: number;
  dueCents: number;
}

export function createGiftCardApplications({
  orders,
  findCardCounted,
}: {
  orders: OrdersService;
  findCardCounted: FindCardCounted;
}): GiftCardApplications {
  /**
   * Puts a card on an order the caller holds locked, then settles it. `wantedCents` is the client's
   * amount (refused above what is due), or null for min(balance, due). A card holding money on the
   * order already moves nothing (a retry, a double click, the spec's `use` after its payment call).
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
    const { card, items, ...money } = locked;
    // Its hold ran out and its gift-card money went back: nothing here is "already applied".
    if (order.status === 'expired') throw orderExpired();

    const remainder = Math.max(0, order.totalCents - money.giftCents - money.capturedCents);
    // Net (issue 30): a card applied and then removed holds nothing, and may be applied again.
    if (money.cardHeldCents > 0) {
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
    // ledger row is written by the same statement, from the balance the debit left, as the card's next
    // application to the order (counted under both row locks, so two applications cannot share one).
    const now = orders.now().toISOString();
    const [debited] = await queryRows<{ balance_after_cents: number }>(
      tx,
      sql`with debited as (
            update ${giftCards} set balance_cents = balance_cents - ${amountCents}::integer,
              updated_at = ${now}::timestamptz
            where id = ${card.id}::uuid and balance_cents >= ${amountCents}::integer and deleted_at is null
            returning balance_cents)
          insert into ${giftCardLedger}
            (gift_card_id, order_id, kind, amount_cents, balance_after_cents, actor_user_id, application,
             created_at)
          select ${card.id}::uuid, ${order.id}::uuid, 'order_debit', ${-amountCents}::integer, balance_cents,
            ${user.id}::uuid,
            (select coalesce(max(l.application), 0) + 1 from ${giftCardLedger} l
              where l.gift_card_id = ${card.id}::uuid and l.order_id = ${order.id}::uuid
                and l.kind = 'order_debit'),
            ${now}::timestamptz
          from debited
          returning balance_after_cents`,
    );
    if (!debited) throw new AppError(409, 'Insufficient gift card balance', 'INSUFFICIENT_BALANCE');
    // Covered by gift cards alone: the order is paid in this same transaction.
    const { dueCents } = await orders.settle(tx, order, effects, {
      giftCents: money.giftCents + amountCents,
      capturedCents: money.capturedCents,
      items,
    });
    return {
      balanceCents: Number(debited.balance_after_cents),
      appliedCents: amountCents,
      dueCents: Math.max(0, dueCents),
    };
  }

  /**
   * Takes a card off an unpaid order the caller holds locked: each of its applications still held is
   * released (a ledger row giving back exactly what that application debited) and the card's balance
   * goes up by as much. A card whose applications were all released already moves nothing (a retried
   * Remove); a card never applied to the order is a 409.
   */
  async function removeLocked(
    tx: Transaction,
    user: AuthUser,
    order: OrderRow,
    cardId: string,
  ): Promise<Removed> {
    if (order.status === 'paid') throw paidCannotRemove();
    // Expired, cancelled or refunded: whatever the card held went back when the order closed.
    if (order.status !== 'unpaid') throw orderClosed(order);
    const card = await lockCard(tx, cardId);
    if (!card) throw giftCardNotFound();

    const applications = await applicationsOn(tx, order.id, card.id);
    if (applications.length === 0) throw giftCardNotApplied();

    const now = orders.now();
    let balanceCents = card.balanceCents;
    let releasedCents = 0;
    for (const held of applications.filter((a) => !a.released)) {
      const after = await releaseApplication(tx, order.id, held, user.id, now);
      if (after === undefined) throw new AppError(409, 'The balance would be too high', 'BALANCE_TOO_HIGH');
      balanceCents = after;
      releasedCents += held.cents;
    }
    const { giftCents, capturedCents } = await moneyOn(tx, order.id);
    return {
      balanceCents,
      releasedCents,
      dueCents: Math.max(0, order.totalCents - giftCents - capturedCents),
    };
  }

  return {
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

    async removeFromOrder(caller, { code, orderId }) {
      const { user } = caller;
      // The code is looked up (and a wrong one counted) before the order is read, as in `use`.
      const card = await findCardCounted(caller, code);
      const removed = await orders.withLockedOrder(orderId, { ownerId: user.id }, (tx, order) =>
        removeLocked(tx, user, order, card.id),
      );
      const message =
        removed.releasedCents > 0
          ? `Gift card removed: ${formatCents(removed.releasedCents)} went back to the card. ` +
            `${formatCents(removed.dueCents)} is due.`
          : 'This gift card is no longer applied to this order.';
      return {
        orderId,
        balance: toDollars(removed.balanceCents),
        released: toDollars(removed.releasedCents),
        amountDue: toDollars(removed.dueCents),
        message,
      };
    },
  };
}
