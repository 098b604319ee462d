import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { App } from '../../lib/http.js';
import type { Limiter } from '../../lib/limiter.js';
import { publicUrls } from '../../lib/urls.js';
import type { Mailer } from '../mail/mail.worker.js';
import { type AlertsRoutesOptions, alertsRoutes } from './alerts.routes.js';
import { createAlertCleanup } from './alerts.cleanup.js';
import { type AlertsService, createAlertsService } from './alerts.service.js';

/**
 * The back-in-stock alerts module (issue 34) as the app wires it: its service, its routes, and the
 * hourly cleanup of visitors' alerts never confirmed (alerts.cleanup.ts), which runs while the app
 * listens (tests that only inject() run it themselves). No other module calls it: the alert mails are
 * written by the database on every restock (migration 0025), so no stock path has to remember them.
 */
export interface AlertsModule {
  service: AlertsService;
  register(app: App): Promise<void>;
}

export function createAlertsModule(options: {
  db: Database;
  mailer: Mailer;
  limiter: Limiter;
  limits: AlertsRoutesOptions['limits'];
  /** PUBLIC_URL: image URLs in the answers, and (else the request's origin) the mails' links. */
  config: Pick<Config, 'publicUrl' | 'port'>;
  clock?: (() => Date) | undefined;
}): AlertsModule {
  const service = createAlertsService({
    db: options.db,
    mailer: options.mailer,
    publicUrl: publicUrls(options.config.publicUrl),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    service,
    async register(app) {
      await app.register(alertsRoutes, {
        alerts: service,
        limiter: options.limiter,
        limits: options.limits,
        config: options.config,
      });
      const cleanup = createAlertCleanup({
        db: options.db,
        log: app.log.child({ worker: 'alert-cleanup' }),
        ...(options.clock ? { clock: options.clock } : {}),
      });
      app.addHook('onListen', async () => cleanup.start());
      app.addHook('onClose', async () => cleanup.stop());
    },
  };
}
