import type { Product } from '@pixel-vault/shared';

/**
 * A category card's rating (issue 14): the average of the verified buyers' reviews and their count, on the
 * price's line (so a card with it is as tall as one without: the grid's skeleton still fits). Read out as
 * "Rated 4.3 out of 5, 12 reviews". Not on the home page's cards: their code is in the first download.
 */
export function CardRating({ product }: { product: Pick<Product, 'productRating' | 'reviewCount'> }) {
  const count = product.reviewCount;
  if (count === 0) return <span className="text-sm text-zinc-400">No reviews yet</span>;
  const average = product.productRating.toFixed(1);
  const reviews = `${count} ${count === 1 ? 'review' : 'reviews'}`;
  return (
    <span className="text-sm whitespace-nowrap text-zinc-300">
      <span className="sr-only">
        Rated {average} out of 5, {reviews}
      </span>
      <span aria-hidden="true">
        <span className="text-yellow-300">★</span> {average} ({count})
      </span>
    </span>
  );
}
