import { desc, eq, sql } from 'drizzle-orm';
import type { AuditEntry, AuditQuery } from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { auditLog, users } from '../../db/schema/index.js';

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
          total: sql<number>`count(*) over ()`.mapWith(Number),
        })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorUserId))
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(limit)
        .offset((page - 1) * limit);
      let total = rows[0]?.total;
      if (total === undefined) {
        const [counted] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(auditLog);
        total = counted?.n ?? 0;
      }
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
        totalPage: Math.max(1, Math.ceil(total / limit)),
        total,
      };
    },
  };
}
