import { type Product, variantTitle } from '@pixel-vault/shared';

/**
 * What a product page tells search engines it sells (issue 31): schema.org `Offer`s, one per variant,
 * each with its SKU, price, availability and, where the product has a Condition option, the
 * `itemCondition` Google's merchant listings read; during a sale (issue 32), the sale price and the day
 * it is good until (`priceValidUntil`). A product sold in one form has one `Offer` (an object, as before
 * variants); a product with several variants has a list of them.
 */

const SCHEMA = 'https://schema.org/';

/** A Condition option's value as schema.org's OfferItemCondition: new, refurbished, or used. */
export function itemCondition(value: string): string {
  const v = value.trim().toLowerCase();
  if (/\b(new|sealed|mint in box|brand new)\b/.test(v) && !/\blike new\b/.test(v))
    return `${SCHEMA}NewCondition`;
  if (/\brefurb/.test(v)) return `${SCHEMA}RefurbishedCondition`;
  return `${SCHEMA}UsedCondition`;
}

/** A sale's end (ISO moment) as schema.org's `priceValidUntil` takes it: its date, `2026-11-30` (UTC). */
function saleEndDate(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 10);
}

const isConditionOption = (name: string) => /^(condition|state|grade)$/i.test(name.trim());

export function productOffers(
  product: Product,
  url: string,
): Record<string, unknown> | Record<string, unknown>[] {
  const condition = product.options.find((option) => isConditionOption(option.name));
  const saleEnd = saleEndDate(product.saleEndsAt);
  const offers = product.variants.map((variant, index) => {
    const title = variantTitle(product.options, variant.options);
    return {
      '@type': 'Offer',
      // The first variant is the product's own address; the others are chosen in it (`?variant=`).
      url: index === 0 ? url : `${url}?variant=${variant._id}`,
      ...(title && { name: `${product.productName} (${title})` }),
      sku: variant.sku,
      price: variant.price.toFixed(2),
      priceCurrency: 'USD',
      // Issue 32: while a sale runs, `price` is the sale price, good until the sale's last day.
      ...(saleEnd && { priceValidUntil: saleEnd }),
      availability: variant.stockQuantity > 0 ? `${SCHEMA}InStock` : `${SCHEMA}OutOfStock`,
      ...(condition &&
        variant.options[condition.name] !== undefined && {
          itemCondition: itemCondition(variant.options[condition.name]!),
        }),
    };
  });
  return offers.length === 1 ? offers[0]! : offers;
}
