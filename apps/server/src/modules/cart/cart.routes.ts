import { Cart, CartBody } from '@pixel-vault/shared';
import { requireUser } from '../../lib/access.js';
import type { App } from '../../lib/http.js';
import type { CartService } from './cart.service.js';

/**
 * Issue 34: the cart of a logged-in shopper (a visitor's stays in the browser). There is no route that
 * names a user: each caller reads and writes only their own cart.
 */
export async function cartRoutes(app: App, { cart }: { cart: CartService }) {
  app.get('/api/cart', { schema: { response: { 200: Cart } }, config: { access: 'user' } }, async (request) =>
    cart.get(requireUser(request)),
  );

  /** The whole cart, replaced (the web app saves every change, debounced); the newer write wins. */
  app.put(
    '/api/cart',
    { schema: { body: CartBody, response: { 200: Cart } }, config: { access: 'user' } },
    async (request) => cart.replace(requireUser(request), request.body),
  );

  /** The visitor's cart at login or registration, merged into the account's. */
  app.post(
    '/api/cart/merge',
    { schema: { body: CartBody, response: { 200: Cart } }, config: { access: 'user' } },
    async (request) => cart.merge(requireUser(request), request.body),
  );
}
