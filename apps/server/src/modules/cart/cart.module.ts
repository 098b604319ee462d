import type { Database } from '../../db/client.js';
import type { App } from '../../lib/http.js';
import type { PublicUrlOf } from '../../lib/urls.js';
import type { Sales } from '../promotions/promotions.sales.js';
import { cartRoutes } from './cart.routes.js';
import { type CartService, type PaidOrderHook, createCartService } from './cart.service.js';

/** The cart module (issue 34) as the app wires it: its service, the orders module's hook, its routes. */
export interface CartModule {
  service: CartService;
  /** For the orders module (`onPaid`): a paid order's lines leave its owner's cart, in its transaction. */
  onOrderPaid: PaidOrderHook;
  register(app: App): Promise<void>;
}

export function createCartModule(options: {
  db: Database;
  sales: Pick<Sales, 'book'>;
  publicUrl: PublicUrlOf;
  clock?: (() => Date) | undefined;
}): CartModule {
  const service = createCartService({
    db: options.db,
    sales: options.sales,
    publicUrl: options.publicUrl,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    service,
    onOrderPaid: service.orderPaid,
    async register(app) {
      await app.register(cartRoutes, { cart: service });
    },
  };
}
