import { useNavigate } from 'react-router';
import { formatCents } from '@pixel-vault/shared';
import { useAppSelector } from '../../app/hooks';
import { cartSubtotalCents } from './cartTotals';
import { selectCartItems } from '../../app/cartSlice';

/** Where 'Login to Checkout' goes: /login, coming back to checkout after logging in. */
export const LOGIN_TO_CHECKOUT = `/login?redirect=${encodeURIComponent('/place-order')}`;

/**
 * Subtotal, the shipping note and the checkout button (spec section 2: 'Checkout' when logged in,
 * 'Login to Checkout' when not). `onLeave` runs before navigating (the panel closes itself).
 */
export function CartSummary({ onLeave }: { onLeave?: () => void }) {
  const navigate = useNavigate();
  const items = useAppSelector(selectCartItems);
  const loggedIn = useAppSelector((state) => state.auth.userInfo != null);
  const go = (to: string) => {
    onLeave?.();
    void navigate(to);
  };
  return (
    <div className="flex flex-col gap-3">
      <p className="flex items-center justify-between text-lg font-semibold text-zinc-100">
        <span>Subtotal</span>
        <span data-testid="cart-subtotal" className="text-lime-300">
          {formatCents(cartSubtotalCents(items))}
        </span>
      </p>
      <p className="text-sm text-zinc-400">Shipping and taxes calculated at checkout.</p>
      {loggedIn ? (
        <button type="button" className="btn btn-primary w-full" onClick={() => go('/place-order')}>
          Checkout
        </button>
      ) : (
        <button type="button" className="btn btn-primary w-full" onClick={() => go(LOGIN_TO_CHECKOUT)}>
          Login to Checkout
        </button>
      )}
    </div>
  );
}
