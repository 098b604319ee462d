import { lazy } from 'react';

/**
 * The cart panel is not needed to show the first page, so it is its own chunk: fetched when the
 * browser is idle after start-up, or at the latest when the shopper reaches for the cart button.
 */
export const loadCartPanel = () => import('../../features/cart/CartPanel');
export const LazyCartPanel = lazy(loadCartPanel);
