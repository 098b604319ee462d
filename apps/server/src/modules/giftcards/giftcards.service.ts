import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  type AddBalanceBody,
  type BalanceResponse,
  type CreateGiftCardBody,
  type GiftCard,
  type Order,
  type RemoveGiftCardBody,
  type RemoveGiftCardResponse,
  type UseGiftCardBody,
  type UseGiftCardResponse,
  toCents,
  toDollars,
} from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { type GiftCardRow, giftCardLedger, giftCards } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import type { RateLimit } from '../../lib/http.js';
import { type Limiter, budgetsFor } from '../../lib/limiter.js';
import { NO_SIGNALS, type Signals } from '../../lib/signals.js';
import { recordAudit } from '../audit/audit.repo.js';
import type { OrdersService } from '../orders/orders.service.js';
import { createGiftCardApplications } from './giftcards.apply.js';
import {
  type CodeCaller,
  findCard,
  MAX_BALANCE_CENTS,
  giftCardNotFound,
  lockCard,
} from './giftcards.cards.js';

export { type CodeCaller, giftCardNotFound };

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
  /**
   * POST /api/giftcards/remove (issue 30): takes the card off the caller's unpaid order and gives the
   * money it holds there back to the card. Only the order's customer (anyone else 404); a paid order
   * 409 ORDER_PAID; a card never applied to the order 409 GIFT_CARD_NOT_APPLIED. Repeating it moves
   * nothing and answers 200 with `released: 0` (idempotent); the card may then be applied again.
   */
  removeFromOrder(caller: CodeCaller, body: RemoveGiftCardBody): Promise<RemoveGiftCardResponse>;
  list(): Promise<GiftCard[]>;
  create(admin: AuthUser, body: CreateGiftCardBody): Promise<GiftCard>;
  /** Conditional top-up + 'top_up' ledger row + audit row, one transaction, as often as wanted. */
  addBalance(admin: AuthUser, id: string, body: AddBalanceBody): Promise<GiftCard>;
  /** Soft delete: the ledger keeps pointing at the card; it can no longer be checked or used. */
  remove(admin: AuthUser, id: string): Promise<void>;
}

const auditView = (row: GiftCardRow) => ({ code: row.code, balance: toDollars(row.balanceCents) });

export interface GiftCardsServiceOptions {
  db: Database;
  orders: OrdersService;
  limiter: Limiter;
  /** Wrong codes per customer and per address, on every route that takes a code (failures only). */
  codeLimits: { perAccount: RateLimit; perAddress: RateLimit };
  /** Told of refused codes (issue 37: metrics). */
  signals?: Signals;
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

export function createGiftCardsService({
  db,
  orders,
  limiter,
  codeLimits,
  signals = NO_SIGNALS,
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
    return limiter
      .guard(
        budgetsFor('giftcard', codeLimits, { ip, account: user.id }),
        'Too many gift card attempts. Please try again later.',
        async () => {
          const card = await findCard(db, code);
          if (!card) {
            signals.giftCardCodeRefused('unknown');
            throw giftCardNotFound();
          }
          return card;
        },
      )
      .catch((error: unknown) => {
        if (error instanceof AppError && error.statusCode === 429)
          signals.giftCardCodeRefused('rate_limited');
        throw error;
      });
  }

  const applications = createGiftCardApplications({ orders, findCardCounted });

  return {
    /**
     * Wrong codes are counted per user in the database, so guessing codes is slow on every
     * instance alike; right codes never count.
     */
    async checkBalance(caller, code) {
      const card = await findCardCounted(caller, code);
      return { balance: toDollars(card.balanceCents) };
    },

    ...applications,

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
