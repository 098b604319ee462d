import { useRef, type MouseEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { CARD_TILT_MAX_DEG, formatDollars, type Product } from '@pixel-vault/shared';
import { Price, SaleBadge, SalePrice } from '../../ui/Price';
import { CARD_IMAGE_SIZES, imageSrcSet } from '../../ui/productImage';
import { WishlistHeart } from '../../app/WishlistHeart';

const PERSPECTIVE_PX = 900;

/**
 * The catalogue's grid of cards (issue 30): two compact columns on a phone from 360 px wide (one card per
 * screen made 12 products 12 screens of scrolling), three from the desktop width; CARD_IMAGE_SIZES
 * follows it.
 */
export const PRODUCT_GRID_CLASS = 'grid grid-cols-1 gap-3 min-[360px]:grid-cols-2 sm:gap-6 lg:grid-cols-3';

function prefersReducedMotion(): boolean {
  return (
    typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

/**
 * Rotation for a pointer at (x, y) in a box of (width, height): the edges tilt by the maximum
 * (spec section 9: 16.25 degrees on each axis), the centre not at all.
 */
export function tiltFor(x: number, y: number, width: number, height: number) {
  const clamp = (v: number) => Math.max(-1, Math.min(1, v));
  const dx = width > 0 ? clamp((x / width) * 2 - 1) : 0;
  const dy = height > 0 ? clamp((y / height) * 2 - 1) : 0;
  // Pointer right -> the right edge goes away (rotateY +); pointer low -> the bottom goes away (rotateX -).
  return { rotateX: +(-dy * CARD_TILT_MAX_DEG).toFixed(2), rotateY: +(dx * CARD_TILT_MAX_DEG).toFixed(2) };
}

/**
 * While a sale runs on the product (issue 32, `compareAtPrice` given): the regular price of what the card
 * shows, the default variant's, or for "from $X" the lowest regular price of its variants (one sale takes
 * the same percent off each, so it is the cheapest one's). Undefined outside a sale.
 */
function regularPrice(product: Product): number | undefined {
  if (product.compareAtPrice === undefined) return undefined;
  if (product.priceRange.min === product.priceRange.max) return product.compareAtPrice;
  const regulars = product.variants.map((v) => v.compareAtPrice ?? v.price);
  return regulars.length > 0 ? Math.min(...regulars) : product.compareAtPrice;
}

/**
 * Category grid card (spec section 2): first image, name, its platform when it has one (issue 33),
 * price ("from $X" when its variants' prices differ, issue 31; during a sale, a "Sale" badge and the
 * regular price struck through beside it, issue 32), and "Sold out" when it is (issue 30: every variant
 * is, decision 007); the whole card links to the product. Issue 34: a wishlist heart over its image's
 * corner, beside the link (a button cannot be inside a link).
 * `priority` for the first card of a page: its image is fetched at once and first, the others lazily.
 */
export function ProductCard({
  product,
  priority = false,
  headingLevel = 3,
  rating,
}: {
  product: Product;
  priority?: boolean;
  /** Shown beside the price (the category page's rating and review count, issue 14). */
  rating?: ReactNode;
  /** The card's name is a heading one level below the section's (h2 under the category's h1). */
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const cardRef = useRef<HTMLAnchorElement>(null);
  const image = product.productImage[0];
  const soldOut =
    product.variants.length > 0
      ? product.variants.every((v) => v.stockQuantity < 1)
      : product.stockQuantity < 1;
  const { min, max } = product.priceRange;
  const regular = regularPrice(product);

  function onMouseMove(event: MouseEvent<HTMLAnchorElement>) {
    const card = cardRef.current;
    if (!card || prefersReducedMotion()) return;
    const box = card.getBoundingClientRect();
    const { rotateX, rotateY } = tiltFor(
      event.clientX - box.left,
      event.clientY - box.top,
      box.width,
      box.height,
    );
    card.style.transform = `perspective(${PERSPECTIVE_PX}px) rotateX(${rotateX}deg) rotateY(${rotateY}deg)`;
  }

  function onMouseLeave() {
    if (cardRef.current) cardRef.current.style.transform = '';
  }

  return (
    <div className="relative h-full">
      <Link
        ref={cardRef}
        to={`/shop/${product.productCategory}/product/${product._id}`}
        onMouseMove={onMouseMove}
        onMouseLeave={onMouseLeave}
        className="product-card group flex h-full flex-col border-4 border-zinc-800 bg-zinc-900 p-2 hover:border-lime-400 focus-visible:border-lime-400 sm:p-3"
      >
        <div
          className={`mb-2 aspect-square overflow-hidden bg-zinc-950 sm:mb-3 ${soldOut ? 'opacity-60 grayscale' : ''}`}
        >
          {image ? (
            <img
              src={image}
              srcSet={imageSrcSet(image)}
              sizes={CARD_IMAGE_SIZES}
              alt={product.productName}
              loading={priority ? 'eager' : 'lazy'}
              fetchPriority={priority ? 'high' : undefined}
              decoding="async"
              width={400}
              height={400}
              className="h-full w-full object-contain"
            />
          ) : (
            <div role="img" aria-label={product.productName} className="no-image h-full w-full" />
          )}
        </div>
        <Heading className="mb-2 line-clamp-2 text-sm font-semibold text-zinc-100 group-hover:text-lime-200 sm:text-base">
          {product.productName}
        </Heading>
        {/* Issue 33: what it runs on, in one line (a long one is cut short on screen, read whole aloud). */}
        {product.platform && (
          <p className="-mt-1 mb-2 truncate text-xs font-semibold tracking-wide text-cyan-300 uppercase">
            <span className="sr-only">Platform:</span> {product.platform}
          </p>
        )}
        <div className="mt-auto flex flex-wrap items-baseline justify-between gap-x-3">
          {regular !== undefined ? (
            <span className="flex flex-wrap items-baseline gap-x-2">
              <SaleBadge className="self-center" />{' '}
              <SalePrice
                value={min !== max ? min : product.productPrice}
                regular={regular}
                from={min !== max}
                className="text-base font-bold text-lime-300 sm:text-lg"
                regularClassName="text-sm font-normal text-zinc-400"
              />
            </span>
          ) : min !== max ? (
            <span className="text-base font-bold text-lime-300 sm:text-lg">
              <span className="text-sm font-semibold text-zinc-300">from</span> {formatDollars(min)}
            </span>
          ) : (
            <Price value={product.productPrice} className="text-base font-bold text-lime-300 sm:text-lg" />
          )}
          {rating}
        </div>
        {/* Issue 30: said in words, not only by the dimmed image. */}
        {soldOut && <p className="mt-1 text-sm font-bold tracking-wide text-amber-300 uppercase">Sold out</p>}
      </Link>
      <WishlistHeart
        productId={product._id}
        productName={product.productName}
        className="absolute top-3 right-3 sm:top-4 sm:right-4"
      />
    </div>
  );
}

/**
 * Where a grid of cards will be, while it loads: the same grid of the same card boxes (image square,
 * two lines of name, the price), so nothing moves when the cards arrive (issue 10: layout shift).
 */
export function ProductGridSkeleton({ count }: { count: number }) {
  return (
    <div role="status" aria-label="Loading products">
      <ul aria-hidden="true" className={PRODUCT_GRID_CLASS}>
        {Array.from({ length: count }, (_, i) => (
          <li key={i} className="flex flex-col border-4 border-zinc-800 bg-zinc-900 p-2 sm:p-3">
            <div className="mb-2 aspect-square animate-pulse bg-zinc-950 motion-reduce:animate-none sm:mb-3" />
            <div className="mb-2 h-12 bg-zinc-800/60" />
            <div className="h-7 w-20 bg-zinc-800/60" />
          </li>
        ))}
      </ul>
    </div>
  );
}
