import { useCallback } from 'react';
import { addItem } from '../../features/cart/addItem';
import { openCart } from '../../features/cart/cartPanelSlice';
import WishlistListPage from '../../features/wishlist/WishlistPage';
import { MyAlerts } from '../../features/alerts/MyAlerts';
import { useAppDispatch } from '../hooks';

/**
 * /wishlist (issue 34): the wishlist feature's page with the cart feature's add (the product read again
 * for its price and stock), then the cart panel opened; under it, the alerts feature's "My alerts".
 * Composed here: features don't import each other.
 */
export default function WishlistPage() {
  const dispatch = useAppDispatch();
  const addToCart = useCallback(
    async (productId: string) => {
      await dispatch(addItem({ productId, qty: 1 })).unwrap();
      dispatch(openCart());
    },
    [dispatch],
  );
  return (
    <>
      <WishlistListPage addToCart={addToCart} />
      <MyAlerts />
    </>
  );
}
