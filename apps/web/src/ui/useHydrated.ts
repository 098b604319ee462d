import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False on the server and while hydrating; true from the render after (and on pages drawn in the
 * browser). For what only the browser may draw (the reviews, a time in the shopper's zone) without the
 * hydration differing from the server's HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
