import {
  type AlertConfirmed,
  type MostWantedItem,
  type StockAlert,
  type StockAlertState,
  nameWithVariant,
  variantTitle,
} from '@pixel-vault/shared';
import { AppError, notFound } from '../../lib/errors.js';
import type { PublicUrlOf } from '../../lib/urls.js';
import { type CatalogueProduct, type CatalogueVariant, variantFor } from '../cart/cart.merge.js';
import type { AlertView, MostWantedRow } from './alerts.repo.js';

/**
 * Issue 34: the variant an alert is for, and the alerts as the API answers them (image URLs through
 * PUBLIC_URL, dates as ISO text).
 */

/** The variant an alert names, by the cart's rule (cart.merge.ts variantFor), or the refusal. */
export function chosenVariant(
  product: CatalogueProduct | undefined,
  variantId: string | null | undefined,
): { product: CatalogueProduct; variant: CatalogueVariant } {
  const found = variantFor(product, variantId ? variantId.toLowerCase() : null);
  if (typeof found !== 'string' && product) return { product, variant: found };
  const name = product?.name ?? 'this product';
  switch (found) {
    case 'variant_unavailable':
      throw new AppError(
        404,
        `That version of ${name} is no longer sold. Please choose another.`,
        'VARIANT_UNAVAILABLE',
      );
    case 'variant_required':
      throw new AppError(
        400,
        `${name} comes in several versions: please choose the one you are waiting for`,
        'VARIANT_REQUIRED',
      );
    default:
      throw notFound('Product not found');
  }
}

/** "Zelda II (Loose / PAL)": how messages and mails name the variant. */
export function itemName(
  product: Pick<CatalogueProduct, 'name' | 'options'>,
  variant: Pick<CatalogueVariant, 'options'>,
) {
  return nameWithVariant(product.name, variantTitle(product.options, variant.options));
}

/** An alert's state as the shopper reads it: a waiting one whose variant is no longer sold says so. */
function stateOf(view: AlertView): StockAlertState {
  if (view.status === 'waiting' && view.gone) return 'discontinued';
  return view.status === 'pending' ? 'waiting' : view.status;
}

const titled = (title: string) => (title ? { variantTitle: title } : {});

export function alertDto(view: AlertView, publicUrl: PublicUrlOf): StockAlert {
  return {
    _id: view.id,
    product: view.productId,
    variant: view.variantId,
    ...titled(variantTitle(view.productOptions, view.variantOptions)),
    name: view.name,
    image: view.image ? publicUrl(view.image) : '',
    category: view.category,
    status: stateOf(view),
    countInStock: Number(view.stock),
    createdAt: view.createdAt.toISOString(),
    notifiedAt: view.notifiedAt ? view.notifiedAt.toISOString() : null,
  };
}

/** What the confirmation page shows: the alert's state and whether the variant can be bought now. */
export function confirmedAnswer(view: AlertView): AlertConfirmed {
  const state = stateOf(view);
  const title = variantTitle(view.productOptions, view.variantOptions);
  const what = nameWithVariant(view.name, title);
  const inStock = !view.gone && view.stock > 0;
  const message =
    state === 'notified'
      ? `We have already e-mailed you that ${what} was back in stock.`
      : state === 'discontinued'
        ? `${what} is no longer sold, so there will be nothing to tell you.`
        : inStock
          ? `Confirmed. ${what} is in stock right now; if it sells out first, we will e-mail you once when it is back.`
          : `Confirmed: we will e-mail you once when ${what} is back in stock.`;
  return {
    message,
    product: view.productId,
    variant: view.variantId,
    ...titled(title),
    name: view.name,
    category: view.category,
    status: state,
    inStock,
  };
}

export function mostWantedDto(row: MostWantedRow, publicUrl: PublicUrlOf): MostWantedItem {
  return {
    product: row.productId,
    variant: row.variantId,
    ...titled(variantTitle(row.productOptions, row.variantOptions)),
    name: row.name,
    sku: row.sku,
    image: row.image ? publicUrl(row.image) : '',
    category: row.category,
    waiting: row.waiting,
    waitingSince: row.since.toISOString(),
  };
}
