import type { UnknownAction } from 'redux';
import { createAction } from './actions';
import { loggedIn, logout } from '../features/account/authSlice';

// Issue 34: which products are on the logged-in shopper's wishlist, for the hearts on the cards and the
// product page. In the first download (the cards are), so a plain reducer of a few lines; the list
// itself (names, prices, stock) is the wishlist page's, read through the data layer. Never persisted.

export interface WishlistState {
  /** The products on the list; null until it has been read for this session. */
  ids: string[] | null;
}

const initialState: WishlistState = { ids: null };

/** The list as the server answered it (newest first). */
export const wishlistLoaded = createAction<string[]>('wishlist/loaded');

/** A heart pressed: shown at once, before the server answers (and put back if it refuses). */
export const wishlistMarked = createAction<{ product: string; on: boolean }>('wishlist/marked');

function reducer(state: WishlistState = initialState, action: UnknownAction): WishlistState {
  if (wishlistLoaded.match(action)) return { ids: action.payload };
  if (wishlistMarked.match(action)) {
    const { product, on } = action.payload;
    const ids = state.ids ?? [];
    if (ids.includes(product) === on) return state;
    return { ids: on ? [product, ...ids] : ids.filter((id) => id !== product) };
  }
  // Another person's list is not this one's.
  if (loggedIn.match(action) || logout.match(action)) return state.ids === null ? state : initialState;
  return state;
}

export const selectWishlistIds = (state: { wishlist: WishlistState }) => state.wishlist.ids;

export const wishlistSlice = { name: 'wishlist', reducerPath: 'wishlist', reducer } as const;
