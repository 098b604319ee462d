/** An uploaded image's URL names one of its WebP renditions (the server makes all three). */
const RENDITION = /-(?:thumb|card|detail)\.webp$/;

/** Widths of the renditions (apps/server products.images.ts IMAGE_SIZES). */
const WIDTHS = { thumb: 160, card: 480, detail: 960 } as const;

/**
 * `srcset` for an uploaded product image: the browser picks the smallest rendition that fills the slot.
 * Undefined for other images (the seeded SVGs scale to any size; images hosted elsewhere are as given).
 */
export function imageSrcSet(url: string): string | undefined {
  if (!RENDITION.test(url)) return undefined;
  const base = url.replace(RENDITION, '');
  return (Object.keys(WIDTHS) as (keyof typeof WIDTHS)[])
    .map((size) => `${base}-${size}.webp ${WIDTHS[size]}w`)
    .join(', ');
}

/** The slot of a card image in the catalogue grid: one column below 360 px, two, then three from 1024. */
export const CARD_IMAGE_SIZES = '(min-width: 1024px) 340px, (min-width: 360px) 45vw, 90vw';
/** The product page's main image: the left half of the page from md up. */
export const DETAIL_IMAGE_SIZES = '(min-width: 1152px) 540px, (min-width: 768px) 45vw, 90vw';
