import type {
  AdminTradeInsQuery,
  BuylistQuery,
  BuylistResponse,
  CreateTradeInBody,
  InspectTradeInBody,
  ShipTradeInBody,
  TradeIn,
  TradeInsPage,
} from '@pixel-vault/shared';
import { toDollars } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import type { AuthUser } from '../../lib/access.js';
import type { Mailer } from '../mail/mail.worker.js';
import type { PublicUrlOf } from '../../lib/urls.js';
import { tradeInAnswers } from './tradeins.answer.js';
import { createTradeInMoves } from './tradeins.moves.js';
import { writeQuote } from './tradeins.quote.js';
import { buylistPage, countTradeIns, queuePage, tradeInById, tradeInsOf } from './tradeins.repo.js';
import { tradeInNotFound } from './tradeins.transitions.js';

/**
 * Issue 35: trade-ins (docs/trade-ins.md). The customer asks for a quote priced from the buy list,
 * ships the items, and accepts or declines the inspected offer; an admin receives and inspects. The
 * moves are tradeins.moves.ts's, the credit tradeins.credit.ts's, the expiry tradeins.expiry.ts's.
 */
export interface TradeInsService {
  buylist(query: BuylistQuery): Promise<BuylistResponse>;
  /** A new quote (201); `base` is where its mails' links point. */
  quote(user: AuthUser, body: CreateTradeInBody, base: string): Promise<TradeIn>;
  listMine(user: AuthUser): Promise<TradeIn[]>;
  /** The caller's own trade-in; anyone else's, or none, is a 404. */
  getMine(user: AuthUser, id: string): Promise<TradeIn>;
  ship(user: AuthUser, id: string, body: ShipTradeInBody): Promise<TradeIn>;
  cancel(user: AuthUser, id: string): Promise<TradeIn>;
  accept(user: AuthUser, id: string): Promise<TradeIn>;
  decline(user: AuthUser, id: string): Promise<TradeIn>;
  adminList(query: AdminTradeInsQuery): Promise<TradeInsPage>;
  adminGet(id: string): Promise<TradeIn>;
  receive(admin: AuthUser, id: string): Promise<TradeIn>;
  inspect(admin: AuthUser, id: string, body: InspectTradeInBody): Promise<TradeIn>;
}

/** A customer's list shows this many trade-ins at most (the newest). */
export const MY_TRADE_INS_LIMIT = 200;

export function createTradeInsService({
  db,
  mailer,
  publicUrl,
  quoteDays,
  onRestock,
  clock = () => new Date(),
}: {
  db: Database;
  mailer: Mailer;
  publicUrl: PublicUrlOf;
  /** TRADEIN_QUOTE_DAYS. */
  quoteDays: number;
  onRestock: () => void;
  clock?: () => Date;
}): TradeInsService {
  const moves = createTradeInMoves({ db, mailer, clock, onRestock });

  async function answer(id: string, { forAdmin = false, ownerId }: { forAdmin?: boolean; ownerId?: string }) {
    const row = await tradeInById(db, id);
    if (!row || (ownerId !== undefined && row.userId !== ownerId)) throw tradeInNotFound();
    const [dto] = await tradeInAnswers(db, [row], publicUrl, { forAdmin });
    if (!dto) throw tradeInNotFound();
    return dto;
  }
  const mine = (user: AuthUser, id: string) => answer(id, { ownerId: user.id });
  const admins = (id: string) => answer(id, { forAdmin: true });

  return {
    async buylist(query) {
      const rows = await buylistPage(db, query);
      // A page past the end has no row to carry the total: the first row of the first page does.
      const total =
        rows[0]?.total ??
        (query.page > 1 ? ((await buylistPage(db, { ...query, page: 1, limit: 1 }))[0]?.total ?? 0) : 0);
      return {
        items: rows.map((row) => ({
          product: row.productId,
          productName: row.name,
          productCategory: row.category,
          platform: row.platform,
          image: row.image ? publicUrl(row.image) : '',
          variant: row.variantId,
          sku: row.sku,
          options: row.options,
          credit: toDollars(row.creditCents),
        })),
        page: query.page,
        pages: Math.max(1, Math.ceil(total / query.limit)),
        total,
        quoteDays,
      };
    },

    async quote(user, body, base) {
      const id = await db.transaction((tx) =>
        writeQuote(tx, user, body.items, { now: clock(), quoteDays, linkBase: base }),
      );
      mailer.kick();
      return mine(user, id);
    },

    async listMine(user) {
      return tradeInAnswers(db, await tradeInsOf(db, user.id, MY_TRADE_INS_LIMIT), publicUrl);
    },

    getMine: mine,

    async ship(user, id, body) {
      await moves.ship(user, id, body);
      return mine(user, id);
    },
    async cancel(user, id) {
      await moves.cancel(user, id);
      return mine(user, id);
    },
    async accept(user, id) {
      await moves.accept(user, id);
      return mine(user, id);
    },
    async decline(user, id) {
      await moves.decline(user, id);
      return mine(user, id);
    },

    async adminList(query) {
      const rows = await queuePage(db, query);
      const total = rows[0]?.total ?? (await countTradeIns(db, query));
      return {
        tradeIns: await tradeInAnswers(db, rows, publicUrl, { forAdmin: true }),
        page: query.page,
        pages: Math.max(1, Math.ceil(total / query.limit)),
        total,
      };
    },
    adminGet: admins,
    async receive(admin, id) {
      await moves.receive(admin, id);
      return admins(id);
    },
    async inspect(admin, id, body) {
      await moves.inspect(admin, id, body);
      return admins(id);
    },
  };
}
