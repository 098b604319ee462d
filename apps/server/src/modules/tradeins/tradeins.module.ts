import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { App } from '../../lib/http.js';
import { publicUrls } from '../../lib/urls.js';
import type { Mailer } from '../mail/mail.worker.js';
import { beforeAccountDeleted } from './tradeins.accounts.js';
import { type TradeInExpiry, createTradeInExpiry } from './tradeins.expiry.js';
import { tradeInsRoutes } from './tradeins.routes.js';
import { type TradeInsService, createTradeInsService } from './tradeins.service.js';

/**
 * The trade-ins module (issue 35) as the app wires it: its service, its routes, and the expiry sweep
 * of quotes not shipped in time, which runs while the app listens (main.ts: every instance; tests that
 * only inject() run `expiry.sweepOnce()` themselves).
 */
export interface TradeInsModule {
  service: TradeInsService;
  expiry: TradeInExpiry;
  /** The users module's hook at an account's deletion (tradeins.accounts.ts). */
  onAccountDeleting: typeof beforeAccountDeleted;
  register(app: App): Promise<void>;
}

export function createTradeInsModule(options: {
  db: Database;
  mailer: Mailer;
  /** PUBLIC_URL (image URLs, and the mails' links, else the request's origin) and TRADEIN_QUOTE_DAYS. */
  config: Pick<Config, 'publicUrl' | 'port' | 'tradeInQuoteDays'>;
  clock?: (() => Date) | undefined;
  /** Stock grew (an accepted trade-in), committed: what the catalogue shows changed. */
  onRestock: () => void;
  /** The expiry sweep's log. */
  log: Pick<FastifyBaseLogger, 'info' | 'error'>;
  /** How often the expiry sweep runs (a minute). */
  sweepIntervalMs?: number;
}): TradeInsModule {
  const clock = options.clock ? { clock: options.clock } : {};
  const service = createTradeInsService({
    db: options.db,
    mailer: options.mailer,
    publicUrl: publicUrls(options.config.publicUrl),
    quoteDays: options.config.tradeInQuoteDays,
    onRestock: options.onRestock,
    ...clock,
  });
  const expiry = createTradeInExpiry({
    db: options.db,
    mailer: options.mailer,
    log: options.log,
    ...(options.sweepIntervalMs ? { intervalMs: options.sweepIntervalMs } : {}),
    ...clock,
  });
  return {
    service,
    expiry,
    onAccountDeleting: beforeAccountDeleted,
    async register(app) {
      await app.register(tradeInsRoutes, { tradeIns: service, config: options.config });
      app.addHook('onListen', async () => expiry.start());
      app.addHook('onClose', async () => expiry.stop());
    },
  };
}
