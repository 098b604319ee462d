import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import type { App } from '../../lib/http.js';

export async function healthRoutes(app: App, { db }: { db: Database }) {
  app.get(
    '/api/health',
    { schema: { response: { 200: z.object({ status: z.literal('ok') }) } }, config: { access: 'public' } },
    async (request, reply) => {
      try {
        await db.execute(sql`select 1`);
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        throw new AppError(503, 'Database unavailable', 'DB_UNAVAILABLE');
      }
      // A load balancer must never see a cached "ok".
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const };
    },
  );
}
