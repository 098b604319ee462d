import { asc, eq } from 'drizzle-orm';
import type { InspectTradeInBody, ShipTradeInBody } from '@pixel-vault/shared';
import type { Database, Transaction } from '../../db/client.js';
import { tradeInItems } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { recordAudit } from '../audit/audit.repo.js';
import { enqueueMailIfVerified } from '../mail/mail.service.js';
import type { Mailer } from '../mail/mail.worker.js';
import { acceptLocked } from './tradeins.credit.js';
import { expireLocked, isOverdue } from './tradeins.expiry.js';
import { inspectionOf } from './tradeins.inspect.js';
import { inspectedMail, receivedMail, returnedMail } from './tradeins.mail.js';
import { type LockedTradeIn, lockTradeIn, setInspection, updateTradeIn } from './tradeins.repo.js';
import {
  MOVE_ACTORS,
  type TradeInMove,
  checkMove,
  recordEvent,
  tradeInExpired,
  tradeInNotFound,
} from './tradeins.transitions.js';

/**
 * Issue 35: the moves of a trade-in after its quote, each in one transaction under the trade-in's row
 * lock: the transition table's check, the status, a timeline line, its mail (outbox) and, for an
 * admin's move, an audit row. A move that already happened answers the trade-in as it is.
 */
export interface TradeInMoves {
  ship(user: AuthUser, id: string, body: ShipTradeInBody): Promise<void>;
  cancel(user: AuthUser, id: string): Promise<void>;
  accept(user: AuthUser, id: string): Promise<void>;
  decline(user: AuthUser, id: string): Promise<void>;
  receive(admin: AuthUser, id: string): Promise<void>;
  inspect(admin: AuthUser, id: string, body: InspectTradeInBody): Promise<void>;
}

type Work = (tx: Transaction, tradeIn: LockedTradeIn, now: Date) => Promise<{ restocked?: boolean } | void>;

export function createTradeInMoves({
  db,
  mailer,
  clock,
  onRestock,
}: {
  db: Database;
  mailer: Mailer;
  clock: () => Date;
  /** Stock grew (an accepted trade-in), committed: the catalogue shows it. */
  onRestock: () => void;
}): TradeInMoves {
  /**
   * Locks the trade-in (the caller's own, for a customer's move: anyone else's is a 404), expires it
   * first when it is a quote whose time is up (committed, then the 409 for expired), checks the move
   * and runs `work` when it is due. Kicks the mail worker and tells the catalogue once committed.
   */
  async function run(move: TradeInMove, user: AuthUser, id: string, work: Work): Promise<void> {
    const now = clock();
    const ownerId = MOVE_ACTORS[move] === 'customer' ? user.id : undefined;
    const outcome = await db.transaction(async (tx) => {
      const tradeIn = await lockTradeIn(tx, id, ownerId);
      if (!tradeIn) throw tradeInNotFound();
      if (isOverdue(tradeIn, now)) {
        await expireLocked(tx, tradeIn, now);
        return { expired: true, changed: true, restocked: false };
      }
      if (checkMove(move, tradeIn.status) === 'done') {
        return { expired: false, changed: false, restocked: false };
      }
      const done = await work(tx, tradeIn, now);
      return { expired: false, changed: true, restocked: done?.restocked ?? false };
    });
    if (outcome.changed) mailer.kick();
    if (outcome.restocked) onRestock();
    if (outcome.expired) throw tradeInExpired();
  }

  /** The plain moves: a status, a timeline line by whoever moved it, and an audit row for an admin. */
  async function step(
    tx: Transaction,
    tradeIn: LockedTradeIn,
    move: TradeInMove,
    to: LockedTradeIn['status'],
    user: AuthUser,
    now: Date,
    extra: { note?: string | null; amountCents?: number | null } = {},
  ) {
    const from = tradeIn.status;
    const actor = MOVE_ACTORS[move] === 'admin' ? 'admin' : 'customer';
    await updateTradeIn(tx, tradeIn.id, { status: to, updatedAt: now });
    tradeIn.status = to;
    await recordEvent(tx, {
      tradeInId: tradeIn.id,
      kind: to,
      actor,
      actorUserId: user.id,
      at: now,
      ...extra,
    });
    if (actor === 'admin') {
      await recordAudit(tx, {
        actor: user.id,
        action: `tradein.${move}`,
        targetType: 'tradein',
        targetId: tradeIn.id,
        before: { status: from },
        after: { status: to, ...(extra.amountCents != null ? { inspectedCents: extra.amountCents } : {}) },
      });
    }
  }

  const linesOf = (tx: Transaction, tradeInId: string) =>
    tx
      .select()
      .from(tradeInItems)
      .where(eq(tradeInItems.tradeInId, tradeInId))
      .orderBy(asc(tradeInItems.position));

  return {
    ship: (user, id, body) =>
      run('ship', user, id, async (tx, tradeIn, now) => {
        const trackingNumber = body.trackingNumber ?? null;
        await updateTradeIn(tx, tradeIn.id, { trackingNumber, updatedAt: now });
        await step(tx, tradeIn, 'ship', 'shipped', user, now, {
          note: trackingNumber ? `Tracking number ${trackingNumber}` : null,
        });
      }),

    cancel: (user, id) =>
      run('cancel', user, id, async (tx, tradeIn, now) => {
        await step(tx, tradeIn, 'cancel', 'cancelled', user, now);
      }),

    receive: (admin, id) =>
      run('receive', admin, id, async (tx, tradeIn, now) => {
        await step(tx, tradeIn, 'receive', 'received', admin, now);
        await enqueueMailIfVerified(tx, tradeIn.userId, receivedMail(tradeIn));
      }),

    inspect: (admin, id, body) =>
      run('inspect', admin, id, async (tx, tradeIn, now) => {
        const lines = await linesOf(tx, tradeIn.id);
        const found = inspectionOf(lines, body);
        for (const line of found) {
          const { id: itemId, ...inspection } = line;
          await setInspection(tx, itemId, inspection);
        }
        const qtyOf = new Map(lines.map((l) => [l.id, l.qty]));
        const inspectedCents = found.reduce((sum, l) => sum + (qtyOf.get(l.id) ?? 0) * l.inspectedCents, 0);
        await updateTradeIn(tx, tradeIn.id, { inspectedCents, updatedAt: now });
        tradeIn.inspectedCents = inspectedCents;
        await step(tx, tradeIn, 'inspect', 'inspected', admin, now, { amountCents: inspectedCents });
        // Every line as quoted: nothing to agree to, so it is accepted and credited at once.
        if (found.every((l) => l.outcome === 'accepted')) {
          return acceptLocked(tx, tradeIn, { actor: 'system', actorUserId: null }, now);
        }
        const inspected = lines.map((l) => ({ ...l, ...found.find((f) => f.id === l.id) }));
        await enqueueMailIfVerified(tx, tradeIn.userId, inspectedMail(tradeIn, inspected));
      }),

    accept: (user, id) =>
      run('accept', user, id, (tx, tradeIn, now) =>
        acceptLocked(tx, tradeIn, { actor: 'customer', actorUserId: user.id }, now),
      ),

    decline: (user, id) =>
      run('decline', user, id, async (tx, tradeIn, now) => {
        await step(tx, tradeIn, 'decline', 'returned', user, now);
        await enqueueMailIfVerified(tx, tradeIn.userId, returnedMail(tradeIn, await linesOf(tx, tradeIn.id)));
      }),
  };
}
