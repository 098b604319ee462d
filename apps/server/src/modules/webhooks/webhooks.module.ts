import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { App } from '../../lib/http.js';
import type { Mailer } from '../mail/mail.worker.js';

/**
 * Issue 37: outgoing webhooks (docs/integrations.md). The database writes an event and its deliveries
 * in the transaction of each change (migration 0030's triggers); a worker signs and sends them while
 * the app listens, with retries for 24 hours.
 */
export interface WebhooksModule {
  register(app: App): Promise<void>;
}

export function createWebhooksModule(_options: {
  db: Database;
  mailer: Mailer;
  config: Pick<Config, 'webhooksAllowLocal' | 'jwtSecret' | 'contactTo' | 'publicUrl' | 'port'>;
  clock?: (() => Date) | undefined;
  log: FastifyBaseLogger;
}): WebhooksModule {
  return {
    async register() {
      // Built in the next commits.
    },
  };
}
