import { sql } from 'drizzle-orm';
import {
  ALERT_CONFIRM_HOURS,
  ALERT_CONFIRM_RESEND_MINUTES,
  ALERT_TOKEN_INVALID_MESSAGE,
  type AlertConfirmed,
  MAX_WAITING_ALERTS,
  type MostWanted,
  type StockAlert,
  type StockAlerts,
  variantTitle,
} from '@pixel-vault/shared';
import type { Database, Transaction } from '../../db/client.js';
import { type AuthUser, notAuthorized } from '../../lib/access.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { PublicUrlOf } from '../../lib/urls.js';
import type { CatalogueProduct, CatalogueVariant } from '../cart/cart.merge.js';
import { enqueueMail } from '../mail/mail.service.js';
import type { Mailer } from '../mail/mail.worker.js';
import { alertDto, chosenVariant, confirmedAnswer, itemName, mostWantedDto } from './alerts.answer.js';
import { alertConfirmMail, confirmLink, hashAlertToken, newConfirmToken } from './alerts.mail.js';
import {
  alertByConfirmHash,
  alertView,
  alertsOf,
  confirmAlert,
  deleteUserAlert,
  insertUserAlert,
  lockVariant,
  mostWanted,
  unsubscribeByHash,
  upsertVisitorAlert,
  userAlertState,
} from './alerts.repo.js';
import { lockUser } from '../users/users.lock.js';
import { catalogueOf } from '../cart/cart.repo.js';

/**
 * Issue 34: back-in-stock alerts (docs/back-in-stock.md). This service subscribes, confirms and
 * unsubscribes; the alert mails themselves are written by PostgreSQL when a variant's stock goes from
 * 0 to above 0 (migration 0025), in the transaction of that change, whatever path makes it.
 */
export interface AlertsService {
  /** A logged-in shopper's alert: waiting at once. `created` false when it was there already. */
  subscribeUser(
    user: AuthUser,
    body: { product: string; variant?: string | null | undefined },
    base: string,
  ): Promise<{ created: boolean; alert: StockAlert }>;
  /**
   * A visitor's alert: a confirmation mail (at most one an hour per address and variant), nothing
   * else until it is confirmed. Answers nothing: the caller says the same whatever happened.
   */
  subscribeVisitor(
    body: { product: string; variant?: string | null | undefined; email: string },
    base: string,
  ): Promise<void>;
  /** The confirmation link: pending -> waiting (idempotent); 400 for a used-up, expired or unknown one. */
  confirm(token: string): Promise<AlertConfirmed>;
  /** One-click unsubscribe: the address's open alerts are cancelled (idempotent); 400 for an unknown token. */
  unsubscribe(token: string): Promise<void>;
  list(user: AuthUser): Promise<StockAlerts>;
  /** The caller's alert deleted; 404 when they have none of that id. Answers the list left. */
  remove(user: AuthUser, id: string): Promise<StockAlerts>;
  mostWanted(): Promise<MostWanted>;
}

/** A shopper's list shows this many alerts at most (the newest). */
export const ALERTS_LIST_LIMIT = 200;
export const MOST_WANTED_LIMIT = 50;

export const alertTokenInvalid = () => new AppError(400, ALERT_TOKEN_INVALID_MESSAGE, 'ALERT_TOKEN_INVALID');

const CONFIRM_MS = ALERT_CONFIRM_HOURS * 60 * 60_000;
const RESEND_MS = ALERT_CONFIRM_RESEND_MINUTES * 60_000;

export function createAlertsService({
  db,
  mailer,
  publicUrl,
  clock = () => new Date(),
}: {
  db: Database;
  mailer: Mailer;
  publicUrl: PublicUrlOf;
  clock?: () => Date;
}): AlertsService {
  const listOf = async (userId: string): Promise<StockAlerts> => ({
    items: (await alertsOf(db, userId, ALERTS_LIST_LIMIT)).map((view) => alertDto(view, publicUrl)),
  });

  /**
   * The variant, share-locked for the rest of the transaction (alerts.repo.ts lockVariant), if it can
   * still be waited for: 404 when it stopped being sold since it was chosen, 409 when it is in stock.
   */
  async function lockWaitable(tx: Transaction, product: CatalogueProduct, variant: CatalogueVariant) {
    const state = await lockVariant(tx, variant.id);
    const what = itemName(product, variant);
    if (!state || state.gone) {
      throw new AppError(404, `${what} is no longer sold.`, 'VARIANT_UNAVAILABLE');
    }
    if (state.stock > 0) {
      throw new AppError(
        409,
        `${what} is in stock now, so there is nothing to wait for: add it to your cart.`,
        'IN_STOCK',
      );
    }
  }

  const resolve = async (body: { product: string; variant?: string | null | undefined }) =>
    chosenVariant((await catalogueOf(db, [body.product])).get(body.product.toLowerCase()), body.variant);

  return {
    async subscribeUser(user, body, base) {
      const { product, variant } = await resolve(body);
      const now = clock();
      const { created, id } = await db.transaction(async (tx) => {
        // The user's row first, as their wishlist and checkout lock it: their subscribes run in turn.
        if (!(await lockUser(tx, user.id))) throw notAuthorized();
        await lockWaitable(tx, product, variant);
        const state = await userAlertState(tx, user.id, variant.id);
        if (state.openId) return { created: false, id: state.openId };
        if (state.waiting >= MAX_WAITING_ALERTS) {
          throw new AppError(
            409,
            `You are waiting for ${MAX_WAITING_ALERTS} items already. Remove an alert to add another.`,
            'ALERTS_FULL',
          );
        }
        const inserted = await insertUserAlert(tx, {
          userId: user.id,
          variantId: variant.id,
          linkBase: base,
          now,
        });
        // Issue 36 (verified e-mail addresses) will refuse here, or hold the alert, for an account
        // whose address is not verified yet; the trigger of migration 0025 then skips such accounts.
        return { created: true, id: inserted };
      });
      const view = await alertView(db, id);
      if (!view) throw notFound('Alert not found');
      return { created, alert: alertDto(view, publicUrl) };
    },

    async subscribeVisitor(body, base) {
      const { product, variant } = await resolve(body);
      const { token, tokenHash } = newConfirmToken();
      const now = clock();
      await db.transaction(async (tx) => {
        // As a password reset (users.service.ts forgotPassword): a commit that wrote waits for its
        // log flush, one that did not does not; not waiting keeps "mailed now" and "mailed within the
        // hour, or confirmed already" alike in time too.
        await tx.execute(sql`set local synchronous_commit = off`);
        await lockWaitable(tx, product, variant);
        const due = await upsertVisitorAlert(tx, {
          variantId: variant.id,
          email: body.email,
          linkBase: base,
          tokenHash,
          now,
          resendAfterMs: RESEND_MS,
        });
        if (due === undefined) return;
        const item = { name: product.name, variantTitle: variantTitle(product.options, variant.options) };
        await enqueueMail(tx, alertConfirmMail(body.email, item, confirmLink(base, token)));
      });
      mailer.kick();
    },

    async confirm(token) {
      const tokenHash = hashAlertToken(token);
      const found = await alertByConfirmHash(db, tokenHash);
      if (!found || found.status === 'cancelled') throw alertTokenInvalid();
      const now = clock();
      if (found.status === 'pending') {
        const sentAt = found.sentAt?.getTime() ?? 0;
        if (now.getTime() - sentAt > CONFIRM_MS) throw alertTokenInvalid();
        await db.transaction(async (tx) => {
          // The variant before the alert's row, as a restock locks them: no deadlock, and no restock
          // commits between the confirmation and the alert waiting for the next one.
          await lockVariant(tx, found.variantId);
          if (!(await confirmAlert(tx, tokenHash, now))) {
            // Cancelled or given a newer link meanwhile; a confirmation that raced this one is fine.
            const again = await alertByConfirmHash(tx, tokenHash);
            if (again?.status !== 'waiting' && again?.status !== 'notified') throw alertTokenInvalid();
          }
        });
      }
      const view = await alertView(db, found.id);
      if (!view) throw alertTokenInvalid();
      return confirmedAnswer(view);
    },

    async unsubscribe(token) {
      const known = await db.transaction((tx) => unsubscribeByHash(tx, hashAlertToken(token)));
      if (!known) throw alertTokenInvalid();
    },

    list: (user) => listOf(user.id),

    async remove(user, id) {
      if (!(await deleteUserAlert(db, user.id, id.toLowerCase()))) throw notFound('Alert not found');
      return listOf(user.id);
    },

    async mostWanted() {
      const rows = await mostWanted(db, MOST_WANTED_LIMIT);
      return { items: rows.map((row) => mostWantedDto(row, publicUrl)) };
    },
  };
}
