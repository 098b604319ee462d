import type { Database } from '../../db/client.js';
import type { App, RateLimit } from '../../lib/http.js';
import type { Limiter } from '../../lib/limiter.js';
import type { Signals } from '../../lib/signals.js';
import { type PromotionsRoutesOptions, promotionsRoutes } from './promotions.routes.js';
import { type Sales, createSales } from './promotions.sales.js';
import { type PromotionsService, createPromotionsService } from './promotions.service.js';

/**
 * The promotions module (issue 32, decision 009) as the app wires it: the sale book the catalogue
 * and the placement price from, the codes' service, and its routes.
 */
export interface PromotionsModule {
  sales: Sales;
  service: PromotionsService;
  /** Registers its routes; `quote` prices a cart with a code (the orders module's). */
  register(app: App, quote: PromotionsRoutesOptions['quote']): Promise<void>;
}

export function createPromotionsModule(options: {
  db: Database;
  limiter: Limiter;
  codeLimits: { perAccount: RateLimit; perAddress: RateLimit };
  clock?: (() => Date) | undefined;
  /** A sale was written: what the catalogue shows changed (here and on every instance). */
  onSaleChanged: () => void;
  /** Told of refused codes (issue 37: metrics). */
  signals?: Signals;
}): PromotionsModule {
  const clock = options.clock ? { clock: options.clock } : {};
  const sales = createSales({ db: options.db, ...clock });
  const service = createPromotionsService({
    db: options.db,
    limiter: options.limiter,
    codeLimits: options.codeLimits,
    onSaleChanged: options.onSaleChanged,
    ...(options.signals ? { signals: options.signals } : {}),
    ...clock,
  });
  return {
    sales,
    service,
    async register(app, quote) {
      await app.register(promotionsRoutes, { promotions: service, quote });
    },
  };
}
