import {
  type CreateTradeInBody,
  MAX_OPEN_TRADE_INS,
  MAX_TRADE_IN_ITEMS,
  nameWithVariant,
  variantTitle,
} from '@pixel-vault/shared';
import type { Transaction } from '../../db/client.js';
import { notAuthorized } from '../../lib/access.js';
import { AppError } from '../../lib/errors.js';
import { enqueueMailIfVerified } from '../mail/mail.service.js';
import { lockUser } from '../users/users.lock.js';
import { quotedMail } from './tradeins.mail.js';
import {
  type NewTradeInLine,
  type OfferProduct,
  countOpen,
  insertTradeIn,
  lockTradeIn,
  offersFor,
} from './tradeins.repo.js';
import { recordEvent } from './tradeins.transitions.js';

/**
 * Issue 35: a quote, priced by the server from the buy list at this moment (a later change of the
 * list does not change it). Lines naming the same variant are merged; a line without a variant is
 * the product's only live variant.
 */

type Offer = OfferProduct['variants'][number];

const offerName = (product: OfferProduct, variant: Offer) =>
  nameWithVariant(product.name, variantTitle(product.options, variant.options));

/** The variant a line names, or the 400 that says which line is wrong. */
function variantOf(
  product: OfferProduct | undefined,
  line: CreateTradeInBody['items'][number],
): { product: OfferProduct; variant: Offer } {
  if (!product || product.deleted) {
    throw new AppError(
      400,
      product
        ? `We no longer buy or sell ${product.name}. Please remove it from your list.`
        : `We do not know the product ${line.product}. Please remove it from your list.`,
      'PRODUCT_UNAVAILABLE',
    );
  }
  const wanted = line.variant?.toLowerCase();
  const variant = wanted
    ? product.variants.find((v) => v.id === wanted)
    : product.variants.length === 1
      ? product.variants[0]
      : undefined;
  if (variant) return { product, variant };
  if (wanted || product.variants.length === 0) {
    throw new AppError(
      400,
      `That version of ${product.name} is not on our buy list. Please choose another.`,
      'VARIANT_UNAVAILABLE',
    );
  }
  throw new AppError(
    400,
    `${product.name} comes in several versions: please choose the one you are selling.`,
    'VARIANT_REQUIRED',
  );
}

/** The lines of the quote, merged by variant, in the order first named, priced from the buy list. */
export function priceLines(
  items: CreateTradeInBody['items'],
  offers: ReadonlyMap<string, OfferProduct>,
): NewTradeInLine[] {
  const byVariant = new Map<string, NewTradeInLine>();
  const notBought: string[] = [];
  for (const item of items) {
    const { product, variant } = variantOf(offers.get(item.product.toLowerCase()), item);
    if (variant.creditCents === null) {
      const name = offerName(product, variant);
      if (!notBought.includes(name)) notBought.push(name);
      continue;
    }
    const merged = byVariant.get(variant.id);
    if (merged) {
      merged.qty += item.qty;
      continue;
    }
    byVariant.set(variant.id, {
      position: byVariant.size,
      productId: product.id,
      variantId: variant.id,
      productName: product.name,
      options: variant.options,
      sku: variant.sku,
      qty: item.qty,
      offeredCents: variant.creditCents,
    });
  }
  if (notBought.length > 0) {
    throw new AppError(
      400,
      `We do not buy ${notBought.length === 1 ? 'this' : 'these'} at the moment: ${notBought.join(', ')}. Please remove ${notBought.length === 1 ? 'it' : 'them'} from your list.`,
      'NOT_ON_BUYLIST',
    );
  }
  const lines = [...byVariant.values()];
  const units = lines.reduce((sum, l) => sum + l.qty, 0);
  if (units > MAX_TRADE_IN_ITEMS) {
    throw new AppError(
      400,
      `A trade-in holds at most ${MAX_TRADE_IN_ITEMS} items (this one has ${units}). Please split it into several.`,
      'TOO_MANY_ITEMS',
    );
  }
  return lines;
}

/**
 * Writes the quote in the caller's transaction, under the customer's row lock (users.lock.ts), so
 * two quotes at once cannot both slip under MAX_OPEN_TRADE_INS. Answers the new trade-in's id.
 */
export async function writeQuote(
  tx: Transaction,
  customer: { id: string },
  items: CreateTradeInBody['items'],
  options: { now: Date; quoteDays: number; linkBase: string },
): Promise<string> {
  const { now } = options;
  const account = await lockUser(tx, customer.id);
  if (!account) throw notAuthorized();
  // Priced after the lock: the buy list as it is when the quote is written.
  const lines = priceLines(
    items,
    await offersFor(
      tx,
      items.map((i) => i.product),
    ),
  );
  if ((await countOpen(tx, customer.id, now)) >= MAX_OPEN_TRADE_INS) {
    throw new AppError(
      409,
      `You have ${MAX_OPEN_TRADE_INS} trade-ins open already. Please finish or cancel one before asking for another quote.`,
      'TRADE_INS_FULL',
    );
  }
  const quotedCents = lines.reduce((sum, l) => sum + l.qty * l.offeredCents, 0);
  const row = await insertTradeIn(
    tx,
    {
      userId: customer.id,
      customerName: account.name,
      customerEmail: account.email,
      status: 'quoted',
      quotedCents,
      expiresAt: new Date(now.getTime() + options.quoteDays * 24 * 60 * 60_000),
      linkBase: options.linkBase,
      createdAt: now,
      updatedAt: now,
    },
    lines,
  );
  await recordEvent(tx, {
    tradeInId: row.id,
    kind: 'quoted',
    actor: 'customer',
    actorUserId: customer.id,
    amountCents: quotedCents,
    at: now,
  });
  const named = await lockTradeIn(tx, row.id);
  if (named) await enqueueMailIfVerified(tx, named.userId, quotedMail(named, lines));
  return row.id;
}
