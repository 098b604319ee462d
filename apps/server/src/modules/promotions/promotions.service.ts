import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  type CreatePromotionBody,
  type Promotion,
  type UpdatePromotionBody,
  promotionShapeProblem,
  promotionValueProblem,
  toCents,
} from '@pixel-vault/shared';
import type { Database } from '../../db/client.js';
import { type PromotionRow, products as productsTable, promotions } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/access.js';
import { AppError, isUniqueViolation, notFound } from '../../lib/errors.js';
import type { RateLimit } from '../../lib/http.js';
import { type Limiter, budgetsFor, rateLimited } from '../../lib/limiter.js';
import { NO_SIGNALS, type Signals } from '../../lib/signals.js';
import { recordAudit } from '../audit/audit.repo.js';
import type { CodeCaller } from '../giftcards/giftcards.cards.js';
import { codeUnknown, toPromotionDto } from './promotions.codes.js';
import { type CodeRow, findByCode, liveUses, recountUses } from './promotions.repo.js';

export interface PromotionsService {
  /**
   * A code by what the shopper typed, counted against their and their address's wrong-code budget,
   * as gift-card codes are (a 429 once either is used up, right code or not): 400 for an unknown one.
   */
  lookup(caller: CodeCaller, code: string): Promise<CodeRow>;
  list(): Promise<Promotion[]>;
  create(admin: AuthUser, body: CreatePromotionBody): Promise<Promotion>;
  update(admin: AuthUser, id: string, body: UpdatePromotionBody): Promise<Promotion>;
  /** Deactivates: a code already on orders is never erased. Repeating it answers the code as it is. */
  deactivate(admin: AuthUser, id: string): Promise<Promotion>;
}

export interface PromotionsServiceOptions {
  db: Database;
  limiter: Limiter;
  codeLimits: { perAccount: RateLimit; perAddress: RateLimit };
  clock?: () => Date;
  /** A scheduled sale was written (issue 32): the catalogue's prices change, here and on every instance. */
  onSaleChanged?: () => void;
  /** Told of refused codes (issue 37: metrics). */
  signals?: Signals;
}

const codeTaken = () => new AppError(409, 'A promotion with this code already exists', 'CODE_TAKEN');
const promotionNotFound = () => notFound('Promotion not found');

/** The columns a body writes (dollars to cents; `null` clears). */
function columnsOf(body: UpdatePromotionBody, kind: PromotionRow['kind']): Partial<PromotionRow> {
  const set: Partial<PromotionRow> = {};
  if (body.code !== undefined) set.code = body.code;
  if (body.kind !== undefined) set.kind = body.kind;
  if (body.value !== undefined || body.kind !== undefined) {
    const value = body.value ?? 0;
    set.value = kind === 'fixed' ? toCents(value) : kind === 'free_shipping' ? 0 : value;
  }
  if (body.minSubtotal !== undefined) {
    set.minSubtotalCents = body.minSubtotal === null ? null : toCents(body.minSubtotal);
  }
  if (body.startsAt !== undefined) set.startsAt = body.startsAt === null ? null : new Date(body.startsAt);
  if (body.endsAt !== undefined) set.endsAt = body.endsAt === null ? null : new Date(body.endsAt);
  if (body.usageLimit !== undefined) set.usageLimit = body.usageLimit;
  if (body.perCustomerLimit !== undefined) set.perCustomerLimit = body.perCustomerLimit;
  if (body.categories !== undefined) set.categories = [...new Set(body.categories)];
  if (body.products !== undefined) set.products = [...new Set(body.products.map((id) => id.toLowerCase()))];
  if (body.active !== undefined) set.active = body.active;
  return set;
}

/** What the audit log keeps of a promotion: its terms (not its uses, which orders change). */
const auditView = (row: PromotionRow) => {
  const { used: _used, state: _state, ...terms } = toPromotionDto(row, row.updatedAt);
  return terms;
};

/**
 * Codes found lately, by what was typed (upper-case), for a few seconds: the row prices the order, and
 * the placement reserves a use only if the code is still that version (else it reads it again), so an
 * admin's change on any instance is never priced with. Codes not found are never kept.
 */
const KNOWN_FOR_MS = 5_000;
const KNOWN_MAX = 1_000;

export function createPromotionsService({
  db,
  limiter,
  codeLimits,
  clock = () => new Date(),
  onSaleChanged = () => {},
  signals = NO_SIGNALS,
}: PromotionsServiceOptions): PromotionsService {
  const known = new Map<string, { row: CodeRow; at: number }>();
  /** Products a code names must exist (not deleted): a typo would make a code that applies to nothing. */
  async function checkProducts(ids: readonly string[] | undefined) {
    if (!ids || ids.length === 0) return;
    const found = await db
      .select({ id: productsTable.id })
      .from(productsTable)
      .where(and(inArray(productsTable.id, [...ids]), isNull(productsTable.deletedAt)));
    const existing = new Set(found.map((row) => row.id));
    const missing = ids.filter((id) => !existing.has(id.toLowerCase()));
    if (missing.length > 0) {
      throw new AppError(400, `Unknown products: ${missing.join(', ')}`, 'UNKNOWN_PRODUCTS');
    }
  }

  /** A sale's write changes the catalogue's prices: after its commit, every instance reads them again. */
  function saleWritten(promotion: Promotion): Promotion {
    if (promotion.kind === 'sale') onSaleChanged();
    return promotion;
  }

  async function write<T>(work: () => Promise<T>): Promise<T> {
    known.clear();
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw codeTaken();
      throw error;
    }
  }

  return {
    async lookup({ user, ip }, code) {
      const budgets = budgetsFor('discount', codeLimits, { ip, account: user.id });
      const message = 'Too many discount code attempts. Please try again later.';
      const at = clock().getTime();
      const seen = known.get(code);
      // A code found in the last few seconds is not read again (issue 32: checkout's hot path).
      const row = seen && at - seen.at < KNOWN_FOR_MS ? seen.row : await findByCode(db, code);
      if (!row) {
        // A wrong code spends a try (429 once either budget is used up, before saying it is wrong).
        const taken = await limiter.take(budgets);
        signals.discountCodeRefused(taken.allowed ? 'unknown' : 'rate_limited');
        if (!taken.allowed) throw rateLimited(message, taken.retryAfterSeconds);
        throw codeUnknown();
      }
      if (!seen || seen.row !== row) {
        known.set(code, { row, at });
        if (known.size > KNOWN_MAX) known.delete(known.keys().next().value!);
      }
      // A right code spends nothing, but is refused like a wrong one once a budget is used up, so a
      // guesser cannot tell them apart. The peek reads the counts after every try taken before it
      // (under the rows' locks), so a burst of guesses is judged as if they came one by one.
      const taken = await limiter.peek(budgets);
      if (!taken.allowed) {
        signals.discountCodeRefused('rate_limited');
        throw rateLimited(message, taken.retryAfterSeconds);
      }
      return row;
    },

    async list() {
      const now = clock();
      const rows = await db
        .select()
        .from(promotions)
        .orderBy(desc(promotions.createdAt), desc(promotions.id));
      const used = await liveUses(
        db,
        rows.map((row) => row.id),
      );
      return rows.map((row) => toPromotionDto(row, now, used.get(row.id) ?? 0));
    },

    async create(admin, body) {
      await checkProducts(body.products);
      const now = clock();
      return write(() =>
        db.transaction(async (tx) => {
          const [row] = await tx
            .insert(promotions)
            .values({
              code: body.code ?? null,
              kind: body.kind,
              value: 0,
              ...columnsOf(body, body.kind),
              createdBy: admin.id,
              createdAt: now,
              updatedAt: now,
            })
            .returning();
          if (!row) throw new Error('Promotion insert returned no row');
          await recordAudit(tx, {
            actor: admin.id,
            action: 'promotion.create',
            targetType: 'promotion',
            targetId: row.id,
            before: null,
            after: auditView(row),
          });
          return toPromotionDto(row, now);
        }),
      ).then(saleWritten);
    },

    async update(admin, id, body) {
      await checkProducts(body.products);
      const now = clock();
      return write(() =>
        db.transaction(async (tx) => {
          const [before] = await tx.select().from(promotions).where(eq(promotions.id, id)).for('update');
          if (!before) throw promotionNotFound();
          const kind = body.kind ?? before.kind;
          const value = body.value ?? (body.kind === undefined ? undefined : 0);
          const problem = promotionValueProblem(
            kind,
            value ?? (before.kind === 'fixed' ? before.value / 100 : before.value),
          );
          if (problem) throw new AppError(400, problem, 'INVALID_VALUE');
          const startsAt =
            body.startsAt === undefined ? before.startsAt : body.startsAt && new Date(body.startsAt);
          const endsAt = body.endsAt === undefined ? before.endsAt : body.endsAt && new Date(body.endsAt);
          if (startsAt && endsAt && endsAt.getTime() <= startsAt.getTime()) {
            throw new AppError(400, 'The end must be after the start', 'INVALID_WINDOW');
          }
          if ((kind === 'sale') !== (before.kind === 'sale')) {
            throw new AppError(
              400,
              'A sale cannot become a discount code, nor a code a sale',
              'INVALID_KIND',
            );
          }
          const pick = <K extends keyof UpdatePromotionBody>(key: K, was: unknown) =>
            body[key] === undefined ? was : body[key];
          const shape = promotionShapeProblem({
            kind,
            code: pick('code', before.code) as string | null,
            startsAt,
            endsAt,
            minSubtotal: pick('minSubtotal', before.minSubtotalCents),
            usageLimit: pick('usageLimit', before.usageLimit),
            perCustomerLimit: pick('perCustomerLimit', before.perCustomerLimit),
          });
          if (shape) throw new AppError(400, shape.message, 'INVALID_PROMOTION');
          const set = columnsOf({ ...body, ...(value === undefined ? {} : { value }) }, kind);
          // Uses of a code without a limit are not counted on its row (reserveUse): counted now that
          // it gets one, under this row lock, which waits for placements reserving a use of it.
          const counted = await recountUses(tx, id);
          if (before.usageLimit === null && set.usageLimit != null) set.used = counted;
          const [row] = await tx
            .update(promotions)
            .set({ ...set, version: sql`${promotions.version} + 1`, updatedAt: now })
            .where(eq(promotions.id, id))
            .returning();
          if (!row) throw promotionNotFound();
          await recordAudit(tx, {
            actor: admin.id,
            action: 'promotion.update',
            targetType: 'promotion',
            targetId: id,
            before: auditView(before),
            after: auditView(row),
          });
          return toPromotionDto(row, now, counted);
        }),
      ).then(saleWritten);
    },

    async deactivate(admin, id) {
      known.clear();
      const now = clock();
      return db
        .transaction(async (tx) => {
          const [before] = await tx.select().from(promotions).where(eq(promotions.id, id)).for('update');
          if (!before) throw promotionNotFound();
          if (!before.active) return toPromotionDto(before, now);
          const [row] = await tx
            .update(promotions)
            .set({ active: false, version: sql`${promotions.version} + 1`, updatedAt: now })
            .where(eq(promotions.id, id))
            .returning();
          if (!row) throw promotionNotFound();
          await recordAudit(tx, {
            actor: admin.id,
            action: 'promotion.deactivate',
            targetType: 'promotion',
            targetId: id,
            before: { active: true },
            after: { active: false },
          });
          return toPromotionDto(row, now);
        })
        .then(saleWritten);
    },
  };
}
