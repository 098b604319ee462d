import { Link } from 'react-router';
import type { Order, OrderItem } from '@pixel-vault/shared';

/**
 * Issue 14: the items of a paid or delivered order can be reviewed (the server's rule: a paid order with
 * the product). An unpaid, cancelled, refunded or expired order offers nothing to review.
 */
export function canReviewItems(order: Pick<Order, 'status'>): boolean {
  return order.status === 'paid' || order.status === 'delivered';
}

/**
 * The product page's review form, by the product's id alone (the page moves to the product's own address
 * and keeps the fragment, which opens and focuses the form: features/reviews/WriteReview.tsx).
 */
export function reviewPath(productId: string): string {
  return `/product/${encodeURIComponent(productId)}#write-review`;
}

/** "Review this product" under an item of the customer's order. */
export function ReviewItemLink({ item }: { item: Pick<OrderItem, 'product' | 'itemName'> }) {
  return (
    <Link
      to={reviewPath(item.product)}
      aria-label={`Review this product: ${item.itemName}`}
      className="self-start text-sm font-semibold text-cyan-300 underline underline-offset-4 hover:text-lime-300"
    >
      Review this product
    </Link>
  );
}
