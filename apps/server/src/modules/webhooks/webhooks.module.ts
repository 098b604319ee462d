import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { shopSettings } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import type { App } from '../../lib/http.js';
import { createSecretBox } from '../../lib/secret-box.js';
import { publicUrls } from '../../lib/urls.js';
import type { Mailer } from '../mail/mail.worker.js';
import { WebhookAddressError, checkWebhookUrl, resolveAllowed } from './webhooks.address.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { type WebhooksService, createWebhooksService } from './webhooks.service.js';
import { type WebhookWorker, createWebhookWorker } from './webhooks.worker.js';

/**
 * Issue 37: outgoing webhooks (docs/integrations.md). The database writes an event and its deliveries
 * in the transaction of each change (migration 0030's triggers); a worker signs and sends them while
 * the app listens, with retries for 24 hours. Tests that only inject() run `app.webhooks.worker.drainOnce()`.
 */
export interface WebhooksModule {
  service: WebhooksService;
  worker: WebhookWorker;
  register(app: App): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The webhooks module, for tests that drain its outbox without listening. */
    webhooks: WebhooksModule;
  }
}

/** The key webhook secrets are sealed with: not the 2FA key (lib/secret-box.ts). */
export const WEBHOOK_SECRET_PURPOSE = 'webhook secret encryption v1';

export function createWebhooksModule(options: {
  db: Database;
  mailer: Mailer;
  config: Pick<
    Config,
    'webhooksAllowLocal' | 'jwtSecret' | 'contactTo' | 'publicUrl' | 'port' | 'lowStockThreshold'
  >;
  clock?: (() => Date) | undefined;
  log: FastifyBaseLogger;
}): WebhooksModule {
  const { db, config } = options;
  const clock = options.clock ?? (() => new Date());
  const box = createSecretBox(config.jwtSecret, WEBHOOK_SECRET_PURPOSE);
  const allowLocal = config.webhooksAllowLocal;
  const worker = createWebhookWorker({
    db,
    box,
    clock,
    allowLocal,
    publicUrl: publicUrls(config.publicUrl),
    ownerEmail: config.contactTo,
    adminUrl: config.publicUrl?.replace(/\/+$/, ''),
    mailQueued: () => options.mailer.kick(),
    log: options.log,
  });
  const service = createWebhooksService({
    db,
    box,
    clock,
    kick: () => worker.kick(),
    async checkUrl(url) {
      try {
        const { host } = checkWebhookUrl(url, allowLocal);
        await resolveAllowed(host, allowLocal);
      } catch (error) {
        if (error instanceof WebhookAddressError)
          throw new AppError(400, error.message, 'WEBHOOK_URL_REFUSED');
        throw error;
      }
    },
  });
  const module: WebhooksModule = {
    service,
    worker,
    async register(app) {
      // The database's triggers read LOW_STOCK_THRESHOLD from here (migration 0030): every instance
      // writes its own at startup, the same value in a healthy deployment.
      await db
        .insert(shopSettings)
        .values({ id: 1, lowStockThreshold: config.lowStockThreshold, updatedAt: clock() })
        .onConflictDoUpdate({
          target: shopSettings.id,
          set: { lowStockThreshold: config.lowStockThreshold, updatedAt: clock() },
        });
      app.decorate('webhooks', module);
      await app.register(webhooksRoutes, { webhooks: service });
      app.addHook('onListen', async () => worker.start());
      app.addHook('onClose', async () => worker.stop());
    },
  };
  return module;
}
