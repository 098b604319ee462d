import type { Executor } from '../../db/client.js';
import { auditLog } from '../../db/schema/index.js';

export interface AuditInput {
  /** The admin who made the change (null: the system). */
  actor: string | null;
  /** e.g. `user.update`, `product.create`, `giftcard.add_balance`. */
  action: string;
  // 'shop': the shop as a whole (a backup, issue 15).
  targetType: 'user' | 'product' | 'order' | 'giftcard' | 'review' | 'shop' | 'promotion' | 'tradein';
  targetId: string | null;
  before?: unknown;
  after?: unknown;
}

/** Keys never written to the audit log, whatever a caller passes (password hashes, token versions). */
const SECRET_KEY = /password|token|secret/i;

/** A JSON-safe copy without secrets; Dates become ISO strings. */
export function scrub(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(scrub);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      if (SECRET_KEY.test(key) || v === undefined) continue;
      out[key] = scrub(v);
    }
    return out;
  }
  return value;
}

/** Writes one audit row; pass the transaction of the change itself so both commit or neither. */
export async function recordAudit(tx: Executor, input: AuditInput): Promise<void> {
  await tx.insert(auditLog).values({
    actorUserId: input.actor,
    action: input.action,
    targetType: input.targetType,
    targetId: input.targetId,
    before: scrub(input.before),
    after: scrub(input.after),
  });
}
