import { errorMessage } from './api';
import { wishlistMarked } from './wishlistSlice';
import type { AppDispatch } from './store';
import { wishlistApi } from '../features/wishlist/api';

// Issue 34: what a heart does, loaded when one is first shown to a logged-in shopper or pressed (with
// the data layer): the cards, in the first download, carry only the heart itself (app/WishlistHeart.tsx).

/**
 * The data layer's reducer joins the store with its next action (app/store.ts, injectReducer): an action
 * of no effect gives it one before its calls, which read their state at once.
 */
const joinDataLayer = (dispatch: AppDispatch) => dispatch({ type: 'wishlist/dataLayerJoined' });

/** Reads the list once for the session (the data layer shares one call between every heart). */
export function loadWishlist(dispatch: AppDispatch) {
  joinDataLayer(dispatch);
  void dispatch(wishlistApi.endpoints.getWishlist.initiate(undefined, { subscribe: false }));
}

/**
 * Puts `productId` on the list or takes it off: shown at once, put back when the server refuses.
 * Answers the server's message on a failure, null when done.
 */
export async function setWishlisted(
  dispatch: AppDispatch,
  productId: string,
  on: boolean,
): Promise<string | null> {
  joinDataLayer(dispatch);
  dispatch(wishlistMarked({ product: productId, on }));
  const result = await dispatch(wishlistApi.endpoints.setWishlisted.initiate({ productId, on }));
  if (!result.error) return null;
  dispatch(wishlistMarked({ product: productId, on: !on }));
  return errorMessage(result.error);
}
