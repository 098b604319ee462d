import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../db/client.js';
import { type Periodic, periodic } from '../../lib/periodic.js';
import { enqueueMailIfVerified } from '../mail/mail.service.js';
import type { Mailer } from '../mail/mail.worker.js';
import { expiredMail } from './tradeins.mail.js';
import { type LockedTradeIn, lockDueQuotes, updateTradeIn } from './tradeins.repo.js';
import { recordEvent } from './tradeins.transitions.js';

/** A quote whose time is up: it must be expired before anything else happens to it. */
export const isOverdue = (tradeIn: Pick<LockedTradeIn, 'status' | 'expiresAt'>, now: Date) =>
  tradeIn.status === 'quoted' && tradeIn.expiresAt.getTime() <= now.getTime();

/** quoted -> expired for a trade-in the caller has locked: the status, the timeline and the mail. */
export async function expireLocked(tx: Transaction, tradeIn: LockedTradeIn, now: Date): Promise<void> {
  await updateTradeIn(tx, tradeIn.id, { status: 'expired', updatedAt: now });
  tradeIn.status = 'expired';
  await recordEvent(tx, { tradeInId: tradeIn.id, kind: 'expired', actor: 'system', at: now });
  await enqueueMailIfVerified(tx, tradeIn.userId, expiredMail(tradeIn));
}

export interface TradeInExpiry extends Periodic {
  /** Expires every quote whose time is up; answers how many. */
  sweepOnce(): Promise<number>;
}

const SWEEP_BATCH = 50;

/**
 * Expires quotes not shipped in time (TRADEIN_QUOTE_DAYS), now and every `intervalMs`, in batches.
 * SKIP LOCKED lets several instances sweep side by side and leaves alone a quote a customer is acting
 * on right now (that call expires it itself when its time is up).
 */
export function createTradeInExpiry({
  db,
  mailer,
  log,
  clock = () => new Date(),
  intervalMs = 60_000,
}: {
  db: Database;
  mailer: Mailer;
  log: Pick<FastifyBaseLogger, 'info' | 'error'>;
  clock?: () => Date;
  intervalMs?: number;
}): TradeInExpiry {
  async function sweepOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const now = clock();
      const claimed = await db.transaction(async (tx) => {
        const due = await lockDueQuotes(tx, now, SWEEP_BATCH);
        for (const tradeIn of due) await expireLocked(tx, tradeIn, now);
        return due.length;
      });
      total += claimed;
      if (claimed < SWEEP_BATCH) break;
    }
    if (total > 0) {
      mailer.kick();
      log.info({ expired: total }, 'trade-in quotes expired');
    }
    return total;
  }

  return {
    ...periodic(sweepOnce, intervalMs, (error) => log.error({ err: error }, 'trade-in expiry failed')),
    sweepOnce,
  };
}
