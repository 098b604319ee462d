import { AdminStats, AdminStatsQuery, OrdersExportQuery } from '@pixel-vault/shared';
import type { App } from '../../lib/http.js';
import type { AdminService, CsvDownload } from './admin.service.js';

/** A file the browser saves rather than shows (issue 15). */
function download(reply: { header(name: string, value: string): unknown }, { filename }: CsvDownload) {
  reply.header('content-type', 'text/csv; charset=utf-8');
  reply.header('content-disposition', `attachment; filename="${filename}"`);
  reply.header('cache-control', 'no-store');
}

export async function adminRoutes(app: App, { admin }: { admin: AdminService }) {
  app.get(
    '/api/admin/stats',
    { schema: { querystring: AdminStatsQuery, response: { 200: AdminStats } }, config: { access: 'admin' } },
    async (request) => admin.stats(request.query),
  );
  app.get(
    '/api/admin/export/orders.csv',
    { schema: { querystring: OrdersExportQuery }, config: { access: 'admin' } },
    async (request, reply) => {
      const csv = admin.ordersCsv(request.query);
      download(reply, csv);
      return reply.send(csv.stream);
    },
  );
  app.get('/api/admin/export/products.csv', { config: { access: 'admin' } }, async (_request, reply) => {
    const csv = admin.productsCsv();
    download(reply, csv);
    return reply.send(csv.stream);
  });
}
