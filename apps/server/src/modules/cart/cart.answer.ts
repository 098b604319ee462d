import {
  type Cart,
  type CartDroppedLine,
  type CartLine,
  MAX_CART_LINES,
  nameWithVariant,
  toDollars,
  variantTitle,
} from '@pixel-vault/shared';
import type { PublicUrlOf } from '../../lib/urls.js';
import { type SaleBook, priceUnder } from '../promotions/promotions.sales.js';
import type { Catalogue, CatalogueProduct, CatalogueVariant, DroppedLine } from './cart.merge.js';
import type { AddedLine } from './cart.repo.js';

/**
 * Issue 34: the cart as the API answers it, priced by the server now (dollars at this boundary only).
 * A line costs what its product page shows: the variant's price, or its sale price while a sale runs
 * (the same book the catalogue and the placement read, promotions.sales.ts).
 */

/** What prices a cart: the sales running at `at`, and how image paths are answered. */
export interface Pricing {
  book: SaleBook;
  at: number;
  publicUrl: PublicUrlOf;
}

/** A variant's price as its product page shows it at `pricing.at`, in cents. */
export function priceCentsOf(product: CatalogueProduct, variant: CatalogueVariant, pricing: Pricing): number {
  const terms = pricing.book.termsFor({ id: product.id, category: product.category }, pricing.at);
  return priceUnder(variant.priceCents, terms);
}

/** The product and variant of a line, if the catalogue still sells them. */
export function liveVariant(
  catalogue: Catalogue,
  line: { productId: string; variantId: string },
): { product: CatalogueProduct; variant: CatalogueVariant } | undefined {
  const product = catalogue.get(line.productId);
  const variant = product?.deleted ? undefined : product?.variants.find((v) => v.id === line.variantId);
  return product && variant ? { product, variant } : undefined;
}

function lineDto(line: AddedLine, catalogue: Catalogue, pricing: Pricing): CartLine {
  const found = liveVariant(catalogue, line);
  // The rules (cart.merge.ts) keep only lines of live variants; reaching here without one is a bug.
  if (!found) throw new Error(`Cart line of ${line.variantId} has no live variant`);
  const { product, variant } = found;
  const priceCents = priceCentsOf(product, variant, pricing);
  const title = variantTitle(product.options, variant.options);
  return {
    product: product.id,
    variant: variant.id,
    ...(title ? { variantTitle: title } : {}),
    qty: line.qty,
    name: product.name,
    image: product.image ? pricing.publicUrl(product.image) : '',
    price: toDollars(priceCents),
    countInStock: variant.stock,
    addedPrice: toDollars(line.addedPriceCents),
    priceChanged: priceCents !== line.addedPriceCents,
    stockShort: line.qty > variant.stock,
  };
}

/** What a shopper is told about a line that is not in the cart. */
function droppedDto(line: DroppedLine, catalogue: Catalogue): CartDroppedLine {
  const product = catalogue.get(line.product);
  const variant = product?.variants.find((v) => v.id === line.variant);
  const name = product
    ? nameWithVariant(product.name, variant ? variantTitle(product.options, variant.options) : '')
    : undefined;
  let message: string;
  switch (line.reason) {
    case 'product_unavailable':
      message = name ? `${name} is no longer sold` : 'A product in your cart is no longer sold';
      break;
    case 'variant_unavailable':
      message = `That version of ${name ?? 'a product'} is no longer sold. Please choose another.`;
      break;
    case 'variant_required':
      message = `${name ?? 'A product'} comes in several versions: please choose one on its page`;
      break;
    case 'cart_full':
      message = `Your cart holds at most ${MAX_CART_LINES} lines: ${name ?? 'a product'} was not added`;
      break;
  }
  return { product: line.product, variant: line.variant, reason: line.reason, message };
}

export function cartAnswer(
  cart: {
    version: number;
    updatedAt: Date | null;
    lines: readonly AddedLine[];
    dropped: readonly DroppedLine[];
  },
  catalogue: Catalogue,
  pricing: Pricing,
): Cart {
  return {
    items: cart.lines.map((line) => lineDto(line, catalogue, pricing)),
    dropped: cart.dropped.map((line) => droppedDto(line, catalogue)),
    version: cart.version,
    updatedAt: cart.updatedAt ? cart.updatedAt.toISOString() : null,
  };
}
