import { desc, eq } from 'drizzle-orm';
import type { AuditEntry, AuditQuery } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { auditLog, users } from '../../db/schema/index.js';
import { pageTotals, windowTotal } from '../../lib/paging.js';

export interface AuditPage {
  entries: AuditEntry[];
  page: number;
  totalPage: number;
  total: number;
}

export interface AuditService {
  list(query: AuditQuery): Promise<AuditPage>;
}

export function createAuditService({ db }: { db: Database }): AuditService {
  return {
    async list({ page, limit }) {
      const rows = await db
        .select({
          entry: auditLog,
          actorName: users.name,
          actorEmail: users.email,
          total: windowTotal(),
        })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorUserId))
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(limit)
        .offset((page - 1) * limit);
      const { total, totalPage } = await pageTotals(db, rows, { from: auditLog }, limit);
      return {
        entries: rows.map(({ entry, actorName, actorEmail }) => ({
          _id: entry.id,
          actor:
            entry.actorUserId && actorName !== null && actorEmail !== null
              ? { _id: entry.actorUserId, name: actorName, email: actorEmail }
              : null,
          action: entry.action,
          targetType: entry.targetType,
          targetId: entry.targetId,
          before: entry.before ?? null,
          after: entry.after ?? null,
          createdAt: entry.createdAt.toISOString(),
        })),
        page,
        totalPage,
        total,
      };
    },
  };
}
