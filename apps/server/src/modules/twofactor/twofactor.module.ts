import type { Database } from '../../db/client.js';
import type { App } from '../../lib/http.js';
import type { Mailer } from '../mail/mail.worker.js';
import { type TwoFactorRoutesOptions, twoFactorRoutes } from './twofactor.routes.js';
import { type TwoFactorService, createTwoFactorService } from './twofactor.service.js';

/**
 * Two-factor sign-in (issue 36, docs/two-factor.md), as the app wires it: the service (the users
 * module asks it for a challenge at login), and the routes. Whether an admin without it may reach the
 * admin routes (REQUIRE_ADMIN_2FA) is lib/access.ts's, from the flag authenticate reads.
 */
export interface TwoFactorModule {
  service: TwoFactorService;
  register(app: App, options: Omit<TwoFactorRoutesOptions, 'twoFactor'>): Promise<void>;
}

export function createTwoFactorModule(options: {
  db: Database;
  jwtSecret: string;
  mailer: Mailer;
  requireAdminTwoFactor: boolean;
  clock?: (() => Date) | undefined;
}): TwoFactorModule {
  const { clock, ...rest } = options;
  const service = createTwoFactorService({ ...rest, ...(clock ? { clock } : {}) });
  return {
    service,
    async register(app, routeOptions) {
      await app.register(twoFactorRoutes, { twoFactor: service, ...routeOptions });
    },
  };
}
