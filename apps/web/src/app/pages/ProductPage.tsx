import { Suspense, lazy, useCallback } from 'react';
import type { Product } from '@pixel-vault/shared';
import { addItem } from '../../features/cart/addItem';
import { openCart } from '../../features/cart/cartPanelSlice';
import {
  type AddToCart,
  type NotifyMeSlot,
  ProductPage as CatalogProductPage,
} from '../../features/catalog/ProductPage';
import { NotifyMe } from '../../features/alerts/NotifyMe';
import { ReviewsLoading, ReviewsShell } from '../../features/reviews/ReviewsShell';
import { useAppDispatch } from '../hooks';
import { useHydrated } from '../../ui/useHydrated';

const loadReviews = () => import('../../features/reviews/ProductReviews');
const ProductReviews = lazy(loadReviews);

// The reviews' code is fetched as soon as the product page's code runs, beside the hydration it does not
// hold up; the server never draws the reviews (they are the browser's), so it need not load them.
if (typeof window !== 'undefined') void loadReviews().catch(() => undefined);

/**
 * The reviews block of a product page (issue 14): the server's HTML and the hydration draw the same
 * loading skeleton in a block of reserved height; once hydrated, the browser draws the reviews in it.
 */
function Reviews({ product }: { product: Product }) {
  const hydrated = useHydrated();
  return (
    <ReviewsShell>
      {hydrated ? (
        <Suspense fallback={<ReviewsLoading />}>
          <ProductReviews key={product._id} productId={product._id} />
        </Suspense>
      ) : (
        <ReviewsLoading />
      )}
    </ReviewsShell>
  );
}

const reviews = (product: Product) => <Reviews product={product} />;

/** Issue 34: the alerts feature's "Notify me when it is back", drawn by the browser (it depends on who is logged in). */
function NotifyMeOnceHydrated({ product, variantId }: { product: Product; variantId: string | undefined }) {
  const hydrated = useHydrated();
  return hydrated ? (
    <NotifyMe
      key={`${product._id}:${variantId ?? ''}`}
      productId={product._id}
      variantId={variantId}
      name={product.productName}
    />
  ) : null;
}

const notifyMe: NotifyMeSlot = (product, variantId) => (
  <NotifyMeOnceHydrated product={product} variantId={variantId} />
);

/**
 * The cart feature's add (the product read again for its price and stock; issue 31: its chosen
 * variant's), then its panel opened.
 */
function useAddToCart(): AddToCart {
  const dispatch = useAppDispatch();
  return useCallback(
    async (productId, qty, variantId) => {
      await dispatch(
        addItem(variantId === undefined ? { productId, qty } : { productId, qty, variantId }),
      ).unwrap();
      dispatch(openCart());
    },
    [dispatch],
  );
}

/**
 * /shop/:category/product/:id (spec section 2): the catalogue's product page with the reviews feature's
 * block under it, the cart feature's 'Add to Cart' and the alerts feature's "Notify me when it is back". Composed here: features don't import each other.
 */
export function ProductPage() {
  const addToCart = useAddToCart();
  return <CatalogProductPage reviews={reviews} addToCart={addToCart} notifyMe={notifyMe} />;
}
