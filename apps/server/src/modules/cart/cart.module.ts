import type { Database, Transaction } from '../../db/client.js';
import type { OrderItemRow, OrderRow } from '../../db/schema/index.js';
import type { App } from '../../lib/http.js';
import type { PublicUrlOf } from '../../lib/urls.js';
import type { Sales } from '../promotions/promotions.sales.js';
import { cartRoutes } from './cart.routes.js';
import { type CartService, createCartService } from './cart.service.js';

/** The cart module (issue 34) as the app wires it: its service, the orders module's hook, its routes. */
export interface CartModule {
  service: CartService;
  /** For the orders module (`onPaid`): a paid order's lines leave its owner's cart, in its transaction. */
  onOrderPaid(tx: Transaction, order: OrderRow, items: readonly OrderItemRow[]): Promise<void>;
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
    onOrderPaid: (tx, order, items) => service.removeOrdered(tx, order, items),
    async register(app) {
      await app.register(cartRoutes, { cart: service });
    },
  };
}
