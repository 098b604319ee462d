import { AuditEntry, AuditQuery, paged } from '@pixel-vault/shared';
import type { App } from '../../lib/http.js';
import type { AuditService } from './audit.service.js';

const AuditPage = paged('entries', AuditEntry);

export async function auditRoutes(app: App, { audit }: { audit: AuditService }) {
  app.get(
    '/api/admin/audit',
    { schema: { querystring: AuditQuery, response: { 200: AuditPage } }, config: { access: 'admin' } },
    async (request) => audit.list(request.query),
  );
}
