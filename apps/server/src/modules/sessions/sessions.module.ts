import type { Database } from '../../db/client.js';
import type { App } from '../../lib/http.js';
import { createSessionCleanup } from './sessions.cleanup.js';
import { sessionsRoutes } from './sessions.routes.js';
import { type SessionsService, createSessionsService } from './sessions.service.js';

/**
 * Where an account is signed in (issue 36), as the app wires it: the service (the users module opens
 * a session for every token it signs, and ends the others when the token version moves), the routes,
 * and the hourly cleanup of dead sessions, which runs while the app listens (tests that only inject()
 * run it themselves). The check of a token's session is auth.service.ts's, in its one query.
 */
export interface SessionsModule {
  service: SessionsService;
  register(app: App): Promise<void>;
}

export function createSessionsModule(options: {
  db: Database;
  clock?: (() => Date) | undefined;
}): SessionsModule {
  const clock = options.clock;
  const service = createSessionsService({ db: options.db, ...(clock ? { clock } : {}) });
  return {
    service,
    async register(app) {
      await app.register(sessionsRoutes, { sessions: service });
      const cleanup = createSessionCleanup({
        db: options.db,
        log: app.log.child({ worker: 'session-cleanup' }),
        ...(clock ? { clock } : {}),
      });
      app.addHook('onListen', async () => cleanup.start());
      app.addHook('onClose', async () => cleanup.stop());
    },
  };
}
