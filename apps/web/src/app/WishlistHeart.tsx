import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { PixelIcon } from '../ui/PixelIcon';
import { useAppDispatch, useAppSelector } from './hooks';
import { selectWishlistIds } from './wishlistSlice';

/** A pixel heart on the 16 x 16 grid: outline, and filled when pressed. */
const OUTLINE =
  'M3 3h4v2H3zM9 3h4v2H9zM1 5h2v4H1zM13 5h2v4h-2zM7 5h2v2H7zM3 9h2v2H3zM11 9h2v2h-2zM5 11h2v2H5zM9 11h2v2H9zM7 13h2v1H7z';
const FILLED = 'M3 3h4v2h2V3h4v2h2v4h-2v2h-2v2H9v1H7v-1H5v-2H3V9H1V5h2z';

const load = () => import('./wishlistCalls');

/**
 * Issue 34: the heart of a product card and the product page. Pressed when the product is on the
 * logged-in shopper's wishlist; a visitor is taken to the login page, and back here after it. Shared by
 * the catalogue's card and page (app/, as features don't import each other); what it calls is loaded
 * on demand (app/wishlistCalls.ts), as the cards are in the first download.
 */
export function WishlistHeart({
  productId,
  productName,
  className = '',
}: {
  productId: string;
  productName: string;
  className?: string;
}) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const loggedIn = useAppSelector((state) => state.auth.userInfo != null);
  const ids = useAppSelector(selectWishlistIds);
  const [error, setError] = useState('');
  const pressed = loggedIn && ids !== null && ids.includes(productId);

  useEffect(() => {
    if (loggedIn && ids === null) void load().then((calls) => calls.loadWishlist(dispatch));
  }, [loggedIn, ids, dispatch]);

  async function toggle() {
    if (!loggedIn) {
      void navigate(`/login?redirect=${encodeURIComponent(pathname + search)}`);
      return;
    }
    setError('');
    const calls = await load();
    setError((await calls.setWishlisted(dispatch, productId, !pressed)) ?? '');
  }

  return (
    <span className={className}>
      <button
        type="button"
        aria-pressed={pressed}
        aria-label={`${pressed ? 'Remove' : 'Add'} ${productName} ${pressed ? 'from' : 'to'} wishlist`}
        title={pressed ? 'On your wishlist' : 'Add to wishlist'}
        onClick={() => void toggle()}
        className="flex h-11 w-11 items-center justify-center border-2 border-zinc-700 bg-zinc-950/90 text-fuchsia-300 hover:border-fuchsia-300 focus-visible:border-fuchsia-300"
      >
        <PixelIcon d={pressed ? FILLED : OUTLINE} className="h-6 w-6" />
      </button>
      {/* Said when it appears (a refusal); the pressed state itself is the button's. */}
      {error && (
        <span role="alert" className="sr-only">
          {error}
        </span>
      )}
    </span>
  );
}
