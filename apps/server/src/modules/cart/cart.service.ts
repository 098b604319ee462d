import type { Cart, CartBody } from '@pixel-vault/shared';
import type { WithSubquery } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import type { OrderItemRow, OrderRow } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { busy, hasPostgresCode } from '../../lib/errors.js';
import type { PublicUrlOf } from '../../lib/urls.js';
import type { Sales } from '../promotions/promotions.sales.js';
import { type Pricing, cartAnswer, liveVariant, priceCentsOf } from './cart.answer.js';
import { type CartLines, type Catalogue, type KeptLine, mergeCarts, resolveLines } from './cart.merge.js';
import {
  type StoredLine,
  catalogueOf,
  lockCart,
  readCart,
  countPaidCart,
  removePaidLines,
  storedLines,
  writeLines,
} from './cart.repo.js';

/**
 * Issue 34: a logged-in shopper's cart on the server, so it follows them from device to device.
 * Every write locks the cart's row and counts a version: two writes at once run one after the other,
 * and the cart is the later one's (the newer write wins, never a mix). The rules are cart.merge.ts's.
 */
export interface CartService {
  /** The account's cart now; lines of removed products or variants are left out and listed in `dropped`. */
  get(user: AuthUser): Promise<Cart>;
  /** PUT /api/cart: the whole cart becomes `body.items` (lines the catalogue no longer sells dropped). */
  replace(user: AuthUser, body: CartBody): Promise<Cart>;
  /** POST /api/cart/merge: the visitor's cart at login or registration, merged in (mergeCarts). */
  merge(user: AuthUser, body: CartBody): Promise<Cart>;
  /**
   * The orders module's onPaid (in the transaction that marks the order paid): the order's variants
   * leave its owner's cart; the owner's other lines stay. `alongside` is a `with` clause of the
   * statement that marks the order paid; `after` runs next, told whether it found the cart.
   */
  orderPaid: PaidOrderHook;
}

export interface CartServiceOptions {
  db: Database;
  /** Scheduled sales (issue 32): a line costs what its product page shows. */
  sales: Pick<Sales, 'book'>;
  publicUrl: PublicUrlOf;
  clock?: () => Date;
}

/**
 * What the orders module calls when an order is paid, in its transaction (orders.settle.ts's
 * OrderPaidHook, written here so the cart does not import the orders module).
 */
export interface PaidOrderHook {
  alongside(tx: Transaction, order: OrderRow, items: readonly OrderItemRow[]): WithSubquery | undefined;
  after(tx: Transaction, order: OrderRow, items: readonly OrderItemRow[], found: boolean): Promise<void>;
}

const variantsOf = (items: readonly OrderItemRow[]) =>
  items.flatMap((item) => (item.variantId ? [item.variantId] : []));

/** What a write keeps of the catalogue and the cart as it was: the lines to write and those dropped. */
type Rule = (stored: readonly StoredLine[], catalogue: Catalogue) => CartLines;

export function createCartService({
  db,
  sales,
  publicUrl,
  clock = () => new Date(),
}: CartServiceOptions): CartService {
  async function pricingNow(): Promise<{ pricing: Pricing; now: Date }> {
    // Read before any transaction: on PGlite a transaction holds the one connection the book reads on.
    const book = await sales.book();
    const now = clock();
    return { pricing: { book, at: now.getTime(), publicUrl }, now };
  }

  /**
   * One write: the cart locked (and its version counted), the products named by `productIds` (and, for
   * a merge, by the cart) read, `rule` applied, the lines written. A line that stays keeps the price
   * it was added at; a new one is added at today's.
   */
  async function write(
    user: AuthUser,
    productIds: readonly string[],
    readsCart: boolean,
    rule: Rule,
  ): Promise<Cart> {
    const { pricing, now } = await pricingNow();
    try {
      return await db.transaction(async (tx) => {
        const version = await lockCart(tx, user.id, now);
        const stored = await storedLines(tx, user.id);
        const named = readsCart ? [...productIds, ...stored.map((l) => l.productId)] : productIds;
        const catalogue = await catalogueOf(tx, named);
        const { lines, dropped } = rule(stored, catalogue);
        const before = new Map(stored.map((l) => [l.variantId, l]));
        const written = lines.map((line) =>
          stamped(line, before.get(line.variantId), catalogue, pricing, now),
        );
        await writeLines(tx, user.id, written);
        return cartAnswer({ version, updatedAt: now, lines: written, dropped }, catalogue, pricing);
      });
    } catch (error) {
      // A product, variant or account deleted for good between the read and the write (a foreign key
      // refused the line): nothing was written, and the same request sent again is answered properly.
      if (hasPostgresCode(error, '23503')) throw busy();
      throw error;
    }
  }

  return {
    async get(user) {
      const { pricing } = await pricingNow();
      const cart = await readCart(db, user.id);
      if (!cart) {
        return cartAnswer({ version: 0, updatedAt: null, lines: [], dropped: [] }, new Map(), pricing);
      }
      const catalogue = await catalogueOf(
        db,
        cart.lines.map((l) => l.productId),
      );
      // Lines of products or variants removed since: left out and told (the next write lets them go).
      const { lines, dropped } = resolveLines(
        cart.lines.map((l) => ({ product: l.productId, variant: l.variantId, qty: l.qty })),
        catalogue,
      );
      const added = new Map(cart.lines.map((l) => [l.variantId, l.addedPriceCents]));
      return cartAnswer(
        {
          version: cart.version,
          updatedAt: cart.updatedAt,
          lines: lines.map((l) => ({ ...l, addedPriceCents: added.get(l.variantId) ?? 0 })),
          dropped,
        },
        catalogue,
        pricing,
      );
    },

    replace: (user, body) =>
      write(
        user,
        body.items.map((i) => i.product),
        false,
        (_stored, catalogue) => resolveLines(body.items, catalogue),
      ),

    merge: (user, body) =>
      write(
        user,
        body.items.map((i) => i.product),
        true,
        (stored, catalogue) => mergeCarts(stored, body.items, catalogue),
      ),

    orderPaid: {
      alongside: (tx, order, items) =>
        order.userId ? countPaidCart(tx, order.userId, variantsOf(items), clock()) : undefined,
      async after(tx, order, items, found) {
        if (found && order.userId) await removePaidLines(tx, order.userId, variantsOf(items));
      },
    },
  };
}

/** A line to write: as it was added before, or added now at today's price. */
function stamped(
  line: KeptLine,
  was: StoredLine | undefined,
  catalogue: Catalogue,
  pricing: Pricing,
  now: Date,
): StoredLine {
  if (was) return { ...line, addedPriceCents: was.addedPriceCents, addedAt: was.addedAt };
  const found = liveVariant(catalogue, line);
  if (!found) throw new Error(`Cart line of ${line.variantId} has no live variant`);
  return { ...line, addedPriceCents: priceCentsOf(found.product, found.variant, pricing), addedAt: now };
}
