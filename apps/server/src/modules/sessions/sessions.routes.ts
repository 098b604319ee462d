import { SessionParams, UserSessionsResponse } from '@pixel-vault/shared';
import { requireUser } from '../../lib/access.js';
import type { App } from '../../lib/http.js';
import type { SessionsService } from './sessions.service.js';

/** Issue 36: where the caller is signed in, and signing out one or all other sessions. */
export async function sessionsRoutes(app: App, { sessions }: { sessions: SessionsService }) {
  app.get(
    '/api/users/sessions',
    { schema: { response: { 200: UserSessionsResponse } }, config: { access: 'user' } },
    async (request) => sessions.list(requireUser(request)),
  );

  app.delete(
    '/api/users/sessions/:id',
    {
      schema: { params: SessionParams, response: { 200: UserSessionsResponse } },
      config: { access: 'user' },
    },
    async (request) => sessions.revoke(requireUser(request), request.params.id),
  );

  app.post(
    '/api/users/sessions/revoke-others',
    { schema: { response: { 200: UserSessionsResponse } }, config: { access: 'user' } },
    async (request) => sessions.revokeOthers(requireUser(request)),
  );
}
